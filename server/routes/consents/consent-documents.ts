/**
 * The consent as a document:
 *  - GET /control/v2/consent/pdf?consent_id&version&platform=clinro[&pdf_type=print_to_sign]:
 *    the consent text (blank), or with signature lines to sign on paper;
 *  - GET /control/v2/clinro/email?consent_id&participant_id&version[&pdf_type=print_to_sign]:
 *    mails the participant's consent PDF (or the print-to-sign one) as an attachment;
 *  - GET /control/v2/studies/{studyId}/participants/{ptpId}/download?consent_id: the completed
 *    (or declined) consent, with x-signatures-verified saying whether every signature verifies.
 * PDFs are attachments, never cached (Cache-Control no-store); nosniff is set for every answer.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import {
  consentDownloadCall,
  consentEmailCall,
  consentPdfCall,
} from "../../../core/contracts/calls/consent-calls.ts";
import {
  CONSENT_PDF_CONTENT_TYPE,
  PARTICIPANT_HAS_NO_EMAIL,
  SIGNATURES_VERIFIED_HEADER,
  type ConsentEmailResponse,
} from "../../../core/contracts/consent-schemas.ts";
import { FINISHED_CONSENT_STATUSES } from "../../../core/contracts/consents.ts";
import { requireSession } from "../../auth/authenticate.ts";
import {
  notOfferedForbidden,
  requireConsent,
  requireParticipantConsent,
} from "../../consents/consent-access.ts";
import { consentVersionOf } from "../../consents/consent-definitions.ts";
import { completedPdfInput, pdfFileName, unsignedPdfInput } from "../../consents/consent-document.ts";
import { loadConsentState } from "../../consents/consent-signings.ts";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/client.ts";
import { studies } from "../../db/schema.ts";
import { HttpError } from "../../http/errors.ts";
import { registerCall } from "../../http/register-call.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { participantForbidden } from "../../participants/site-access.ts";
import { renderConsentPdf } from "../../pdf/consent-pdf.ts";
import { eq } from "drizzle-orm";

async function requireVersion(db: Database, consentId: number, version: number) {
  const published = await consentVersionOf(db, consentId, version);
  if (!published) {
    throw new HttpError(404, `Consent ${consentId} has no version ${version}.`, "consent_version_not_found");
  }
  return published;
}

async function studyNameOf(db: Database, studyId: number) {
  const [study] = await db.select({ name: studies.name }).from(studies).where(eq(studies.id, studyId));
  return study?.name ?? "";
}

/** attachment; filename="ascii"; filename*=UTF-8''encoded (RFC 6266). */
function attachmentHeader(fileName: string) {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

function sendPdf(reply: FastifyReply, pdf: Buffer, fileName: string) {
  return reply
    .code(200)
    .header("content-type", CONSENT_PDF_CONTENT_TYPE)
    .header("content-disposition", attachmentHeader(fileName))
    .header("cache-control", "no-store")
    .header("x-content-type-options", "nosniff")
    .send(pdf);
}

export function consentDocumentRoutes(app: FastifyInstance, ctx: AppContext, deps: { mailer: Mailer }) {
  registerCall(app, consentPdfCall, async (request, reply) => {
    const { user } = requireSession(request);
    const query = request.query;
    const { consent } = await requireConsent(ctx.db, user.id, query.consent_id);
    const published = await requireVersion(ctx.db, consent.id, query.version);
    const title = published.definition.title ?? consent.title;
    const pdf = await renderConsentPdf(
      unsignedPdfInput({
        kind: query.pdf_type ?? "blank",
        title,
        version: query.version,
        studyName: await studyNameOf(ctx.db, consent.studyId),
        definition: published.definition,
      }),
    );
    return sendPdf(reply, pdf, pdfFileName(title, query.version));
  });

  registerCall(app, consentEmailCall, async (request): Promise<ConsentEmailResponse> => {
    const { user } = requireSession(request);
    const query = request.query;
    const { consent, participant, offer } = await requireParticipantConsent(
      ctx.db,
      user.id,
      query.consent_id,
      query.participant_id,
    );
    const published = await requireVersion(ctx.db, consent.id, query.version);
    if (offer.version !== query.version) throw notOfferedForbidden();
    const email = participant.email?.trim();
    if (!email) {
      throw new HttpError(400, "This participant has no email address.", PARTICIPANT_HAS_NO_EMAIL);
    }
    const title = published.definition.title ?? consent.title;
    const studyName = await studyNameOf(ctx.db, consent.studyId);
    const person = {
      id: participant.id,
      name: `${participant.fname} ${participant.lname}`.trim(),
      subjectId: participant.subjectId,
    };
    const printToSign = query.pdf_type === "print_to_sign";
    const pdf = await renderConsentPdf(
      printToSign
        ? unsignedPdfInput({
            kind: "print_to_sign",
            title,
            version: query.version,
            studyName,
            participant: person,
            definition: published.definition,
          })
        : await completedPdfInput(ctx.db, {
            title,
            version: query.version,
            studyName,
            participant: person,
            definition: published.definition,
            state: await loadConsentState(ctx.db, {
              consentId: consent.id,
              participantId: participant.id,
              version: query.version,
            }),
          }),
    );
    await deps.mailer.send({
      to: email,
      subject: `${title} (${studyName})`,
      text: printToSign
        ? `Dear ${person.name},\n\nAttached is the consent form "${title}" (version ${query.version}) of ${studyName}, to print and sign.\n\nThe study team`
        : `Dear ${person.name},\n\nAttached is your consent "${title}" (version ${query.version}) of ${studyName}, as signed so far.\n\nThe study team`,
      html: `<p>Dear ${escapeHtml(person.name)},</p><p>Attached is ${
        printToSign ? "the consent form" : "your consent"
      } &ldquo;${escapeHtml(title)}&rdquo; (version ${query.version}) of ${escapeHtml(studyName)}${
        printToSign ? ", to print and sign" : ", as signed so far"
      }.</p><p>The study team</p>`,
      attachments: [
        {
          filename: pdfFileName(title, query.version, participant.subjectId),
          content: pdf,
          contentType: CONSENT_PDF_CONTENT_TYPE,
        },
      ],
    });
    return { message: "email sent" };
  });

  registerCall(app, consentDownloadCall, async (request, reply) => {
    const { user } = requireSession(request);
    const { studyId, ptpId } = request.params;
    const query = request.query;
    const { consent, participant, offer } = await requireParticipantConsent(
      ctx.db,
      user.id,
      query.consent_id,
      ptpId,
    );
    if (consent.studyId !== studyId || participant.studyId !== studyId) throw participantForbidden();
    if (!(FINISHED_CONSENT_STATUSES as readonly string[]).includes(offer.status)) {
      throw new HttpError(409, "This consent is not completed yet.", "consent_not_completed");
    }
    const published = await requireVersion(ctx.db, consent.id, offer.version);
    const state = await loadConsentState(ctx.db, {
      consentId: consent.id,
      participantId: participant.id,
      version: offer.version,
    });
    const title = published.definition.title ?? consent.title;
    const pdf = await renderConsentPdf(
      await completedPdfInput(ctx.db, {
        title,
        version: offer.version,
        studyName: await studyNameOf(ctx.db, consent.studyId),
        participant: {
          id: participant.id,
          name: `${participant.fname} ${participant.lname}`.trim(),
          subjectId: participant.subjectId,
        },
        definition: published.definition,
        state,
      }),
    );
    reply.header(SIGNATURES_VERIFIED_HEADER, String(state.allVerified));
    return sendPdf(reply, pdf, pdfFileName(title, offer.version, participant.subjectId));
  });
}

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
