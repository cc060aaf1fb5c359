/**
 * Receiving one consent session (POST .../participant/{id}/consent, clinician or witness): the
 * checks, in order, then the store. Everything here runs inside the idempotent write's
 * transaction, after the participant's consent row is locked, so two sessions of one participant
 * are hashed one after the other and a replayed Idempotency-Key never reaches it.
 *
 * Checks: the version is the one the participant is on and the consent is not finished; each
 * record is a question of the version, not one an earlier signing answered (an identical copy
 * of an earlier answer is dropped), not the other staff side's question, and a signature holds
 * one entry with a printed name, a type and a capture time, its image uploaded for this
 * participant (module consent); then the engine's validateSubmission over all answers so far,
 * where the other side's unanswered questions are not required (the consent filter). Last, the
 * signer's password when the session holds a clinician or witness signature: a failed check
 * throws SigningRefusedError, which the route audits after the transaction rolled back.
 */
import { and, eq, inArray } from "drizzle-orm";
import {
  CONSENT_UPLOAD_MODULE,
  IMAGE_SIGNATURE_TYPES,
  SIGNATURE_TYPES,
  SIGNING_PASSWORD_INVALID,
  type ConsentSigning,
  type ConsentSubmissionBody,
  type ConsentSubmissionResponse,
} from "../../core/contracts/consent-schemas.ts";
import { FINISHED_CONSENT_STATUSES } from "../../core/contracts/consents.ts";
import { isUserSignerRole } from "../../core/contracts/roles.ts";
import type { SubmissionProblem } from "../../core/contracts/instrument-schemas.ts";
import type { AnswerRecord } from "../../core/contracts/survey-answers.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { questionOf } from "../../core/survey-engine/definition-lookup.ts";
import { scoreSurvey } from "../../core/survey-engine/scores.ts";
import { isShown } from "../../core/survey-engine/show-if.ts";
import type { SubmissionPayload } from "../../core/contracts/survey-submission.ts";
import { attachmentsOf } from "../../core/survey-engine/submission.ts";
import { validateSubmission } from "../../core/survey-engine/validate-submission.ts";
import { verifyPassword } from "../auth/passwords.ts";
import { consentParticipants, uploadedFiles, users } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";
import type { Transaction } from "../db/client.ts";
import { consentVersionOf } from "./consent-definitions.ts";
import { loadConsentState, storeSigning } from "./consent-signings.ts";
import { isSigned, signerRoleOf } from "../../core/survey-engine/consent-status.ts";
import { canonicalJson } from "./signature-hash.ts";
import { decryptSigningPassword } from "./signing-key.ts";

const OFFSET_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const PROBLEMS_IN_MESSAGE = 5;

/** A 422 listing every problem of the session (the submission call's body shape). */
export class ConsentRejectedError extends HttpError {
  constructor(
    summary: string,
    readonly problems: SubmissionProblem[],
    code = "consent_invalid",
  ) {
    const shown = problems
      .slice(0, PROBLEMS_IN_MESSAGE)
      .map((problem) => (problem.question ? `${problem.question}: ${problem.message}` : problem.message));
    super(422, problems.length > 0 ? `${summary}: ${shown.join("; ")}` : summary, code);
  }

  override toBody() {
    return { message: this.message, code: this.code ?? "consent_invalid", problems: this.problems };
  }
}

/** The signer's password did not check: nothing is stored; the route writes the audit row. */
export class SigningRefusedError extends HttpError {
  constructor(readonly reason: string) {
    super(
      422,
      "The password entered for the signature is not correct. The signature was not stored.",
      SIGNING_PASSWORD_INVALID,
    );
  }
}

export type ConsentSession = {
  user: { id: number };
  endpoint: "clinro" | "witness";
  consentId: number;
  participantId: number;
  body: ConsentSubmissionBody;
  receivedAt: Date;
};

/** Which side a question belongs to: a staff side by user_type / signer_role, else the participant's. */
function sideOf(definition: SurveyDefinition, questionId: string): "clinro" | "witness" | undefined {
  const question = questionOf(definition, questionId);
  if (!question) return undefined;
  const role = signerRoleOf(question);
  if (isUserSignerRole(role)) return role;
  return question.attributes.user_type;
}

export async function receiveConsentSession(
  tx: Transaction,
  session: ConsentSession,
): Promise<ConsentSubmissionResponse> {
  const { body, endpoint } = session;
  const [offer] = await tx
    .select()
    .from(consentParticipants)
    .where(
      and(
        eq(consentParticipants.consentId, session.consentId),
        eq(consentParticipants.participantId, session.participantId),
      ),
    )
    .for("update");
  if (!offer || offer.version !== body.consent_version) {
    throw new HttpError(
      409,
      `The participant is on version ${offer?.version ?? "none"} of this consent, not ${body.consent_version}.`,
      "consent_version_outdated",
    );
  }
  if ((FINISHED_CONSENT_STATUSES as readonly string[]).includes(offer.status)) {
    throw new HttpError(
      409,
      `This consent is already ${offer.status} for the participant.`,
      "consent_finished",
    );
  }
  const published = await consentVersionOf(tx, session.consentId, offer.version);
  if (!published)
    throw new HttpError(404, "This consent version is not published.", "consent_version_not_found");
  const definition = published.definition;
  const key = { consentId: session.consentId, participantId: session.participantId, version: offer.version };
  const state = await loadConsentState(tx, key);
  const earlier = new Map(state.records.map((record) => [record.id, record]));

  const problems: SubmissionProblem[] = [];
  const fresh: AnswerRecord[] = [];
  const otherSide = endpoint === "clinro" ? "witness" : "clinro";
  body.records.forEach((record, index) => {
    const at = (message: string, field = "") =>
      problems.push({ question: record.id, field: `records[${index}]${field}`, message });
    const question = questionOf(definition, record.id);
    if (!question) return at("is not a question of this consent version");
    const before = earlier.get(record.id);
    if (before && isSigned(before)) {
      if (canonicalJson(before) === canonicalJson(record)) return;
      return at("was answered in an earlier signing and cannot be changed");
    }
    const side = sideOf(definition, record.id);
    if (side === otherSide) {
      return at(
        side === "witness"
          ? "is the witness's question: it is signed through the witness endpoint"
          : "is the clinician's question: it is signed through the clinician endpoint",
      );
    }
    if (question.type === "consent_signature" && record.state === "ANSWERED") {
      if (record.answer.length !== 1) return at("a signature holds exactly one entry", ".answer");
      const entry = record.answer[0]!;
      if (!(SIGNATURE_TYPES as readonly string[]).includes(entry.signature_type ?? "")) {
        at(`signature_type must be one of ${SIGNATURE_TYPES.join(", ")}`, ".answer[0].signature_type");
      }
      if (typeof entry.value !== "string" || entry.value.trim() === "") {
        at("the signature's value (file name or typed name) is empty", ".answer[0].value");
      }
      if (entry.label.trim() === "") at("the signer's printed name (label) is empty", ".answer[0].label");
      if (entry.signed_date === undefined || !OFFSET_TIME.test(entry.signed_date)) {
        at("signed_date must be an ISO 8601 time with its offset", ".answer[0].signed_date");
      }
    }
    fresh.push(record);
  });

  // The engine's checks over every answer so far (earlier signings' and this session's).
  const merged = new Map(state.records.map((record) => [record.id, record]));
  for (const record of fresh) merged.set(record.id, record);
  const ordered = definition.order.flatMap((id) => (merged.has(id) ? [merged.get(id)!] : []));
  const payload = {
    id: definition.id,
    type: definition.type,
    order: definition.order,
    questions: definition.questions,
    answers: ordered,
    scores: scoreSurvey(definition, (id) => merged.get(id)),
    completed_by: session.user.id,
    completion: body.completion,
    identity: "consent",
    state: "COMPLETE",
    start_time: body.completion,
    version: "consent",
    version_number: offer.version,
    attachments: attachmentsOf(ordered),
    instrument_id: session.consentId,
    browser_info: body.browser_info ?? "",
    instance_id: `${session.consentId}-${session.participantId}`,
  } as SubmissionPayload;
  const check = validateSubmission({ ...definition, version: offer.version }, payload, {
    participantId: session.participantId,
  });
  if (!check.ok) {
    for (const problem of check.problems) {
      // The other side's questions nobody answered yet are theirs to answer (consent filtering).
      const otherSidesOpen =
        problem.question !== undefined &&
        !merged.has(problem.question) &&
        sideOf(definition, problem.question) === otherSide;
      if (!otherSidesOpen) problems.push(problem);
    }
  }
  problems.push(...awaitedSignatureProblems(definition, offer.status, endpoint, merged));
  if (problems.length > 0) throw new ConsentRejectedError("The consent was refused", problems);
  if (fresh.length === 0) {
    throw new ConsentRejectedError("The consent was refused", [
      { field: "records", message: "holds no answer that earlier signings do not already hold" },
    ]);
  }
  await requireUploadedSignatures(tx, session.participantId, fresh);

  const staffSigned = fresh.some((record) => {
    const question = questionOf(definition, record.id)!;
    const role = signerRoleOf(question);
    return isUserSignerRole(role) && isSigned(record);
  });
  const [signer] = await tx
    .select({ name: users.name, username: users.username, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, session.user.id));
  if (staffSigned) {
    if (!body.signing) {
      throw new HttpError(
        400,
        "Invalid request. signing: required when the records hold a clinician or witness signature",
        "invalid_request",
        [{ path: "signing", message: "required when the records hold a clinician or witness signature" }],
      );
    }
    await requireSignerPassword(tx, signer?.passwordHash, body.signing);
  }

  return storeSigning(tx, state, {
    ...key,
    definition,
    userId: session.user.id,
    userName: signer?.name.trim() || signer?.username || "",
    endpoint,
    records: fresh,
    completion: new Date(body.completion),
    browserInfo: body.browser_info,
    signing: body.signing
      ? { capturedAt: body.signing.captured_at, timeZone: body.signing.time_zone }
      : undefined,
    receivedAt: session.receivedAt,
  });
}

const AWAITED_BY_ENDPOINT = { clinro: "awaiting_clinro", witness: "awaiting_witness" } as const;
const SIGNER_NAMES = { clinro: "the clinician's", witness: "the witness's" } as const;

/**
 * A session from the signer the participant's status awaits must carry that signer's signature:
 * the clinician's session of a consent awaiting the clinician, the witness's of one awaiting the
 * witness. Without it the status would not move while the session looked finished:
 * each of that signer's shown signature questions still unsigned is named.
 */
function awaitedSignatureProblems(
  definition: SurveyDefinition,
  statusBefore: string,
  endpoint: "clinro" | "witness",
  merged: ReadonlyMap<string, AnswerRecord>,
): SubmissionProblem[] {
  if (statusBefore !== AWAITED_BY_ENDPOINT[endpoint]) return [];
  const lookup = (questionId: string) => merged.get(questionId);
  return definition.order.flatMap((questionId) => {
    const question = questionOf(definition, questionId);
    if (!question || signerRoleOf(question) !== endpoint) return [];
    if (isSigned(lookup(questionId)) || !isShown(question, lookup, definition)) return [];
    return [
      {
        question: questionId,
        field: "records",
        message: `${SIGNER_NAMES[endpoint]} signature is required: the consent awaits it`,
      },
    ];
  });
}

async function requireSignerPassword(
  tx: Transaction,
  passwordHash: string | undefined,
  signing: ConsentSigning,
) {
  const password = await decryptSigningPassword(tx, signing.kid, signing.password_ciphertext);
  if (password === undefined) throw new SigningRefusedError("ciphertext_undecryptable");
  if (!(await verifyPassword(passwordHash, password))) throw new SigningRefusedError("password_mismatch");
}

/** Drawn, camera and image signatures name a file uploaded for this participant with module consent. */
async function requireUploadedSignatures(tx: Transaction, participantId: number, records: AnswerRecord[]) {
  const names = records.flatMap((record) =>
    record.type === "consent_signature" &&
    record.state === "ANSWERED" &&
    IMAGE_SIGNATURE_TYPES.has(record.answer[0]?.signature_type ?? "")
      ? [{ question: record.id, name: String(record.answer[0]!.value) }]
      : [],
  );
  if (names.length === 0) return;
  const uploaded = await tx
    .selectDistinct({ fileName: uploadedFiles.fileName })
    .from(uploadedFiles)
    .where(
      and(
        eq(uploadedFiles.participantId, participantId),
        eq(uploadedFiles.moduleName, CONSENT_UPLOAD_MODULE),
        inArray(
          uploadedFiles.fileName,
          names.map((item) => item.name),
        ),
      ),
    );
  const known = new Set(uploaded.map((row) => row.fileName));
  const problems = names.flatMap((item) =>
    known.has(item.name)
      ? []
      : [{ question: item.question, message: `"${item.name}" was not uploaded for this participant` }],
  );
  if (problems.length > 0) {
    throw new ConsentRejectedError("A signature image was not uploaded", problems, "attachment_missing");
  }
}
