/**
 * Consent definitions: the published versions of a consent (consent_versions, never changed once
 * stored) and their import (`npx clinro consent import FILE --study ID`, and the demo).
 *
 * Import checks the file with the engine's parseSurveyDefinition, like instruments, plus the
 * consent rules: type CONSENT, a title, at least one consent_signature, a signer_role on each
 * (clinro and witness signatures carrying the same user_type), and a consent_decision question
 * being a select_one. The definition's `id` names the consent in the study: a new id makes a new
 * consent, offered to every participant of the study (awaiting_participant); a known id
 * publishes the next version, and every participant of the consent who had not declined is sent
 * back to awaiting_participant on it (a new version asks them to consent again).
 * A definition that does not pass changes nothing.
 */
import { and, desc, eq, ne } from "drizzle-orm";
import { isUserSignerRole } from "../../core/contracts/roles.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import {
  parseSurveyDefinition,
  type DefinitionProblem,
} from "../../core/survey-engine/validate-definition.ts";
import type { Database, Transaction } from "../db/client.ts";
import { consentParticipants, consents, consentVersions, participants, studies } from "../db/schema.ts";
import { ImportError } from "../instruments/import-instrument.ts";
import { isDecisionQuestion } from "../../core/survey-engine/consent-status.ts";

type Executor = Database | Transaction;

export const CONSENT_TYPE = "CONSENT";

/** The consent rules beyond the survey format; empty when the definition is a valid consent. */
export function consentProblems(definition: SurveyDefinition): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  if (definition.type !== CONSENT_TYPE) {
    problems.push({
      field: "type",
      message: `a consent's type is ${CONSENT_TYPE}, not "${definition.type}"`,
    });
  }
  if (!definition.title?.trim()) problems.push({ field: "title", message: "a consent needs a title" });
  let signatures = 0;
  for (const question of Object.values(definition.questions)) {
    if (question.type === "consent_signature") {
      signatures += 1;
      const role = question.attributes.signer_role;
      if (role === undefined) {
        problems.push({
          question: question.id,
          field: "attributes.signer_role",
          message: "a consent signature needs signer_role: participant, caregiver, clinro or witness",
        });
      } else if (isUserSignerRole(role) && question.attributes.user_type !== role) {
        problems.push({
          question: question.id,
          field: "attributes.user_type",
          message: `a ${role} signature carries user_type "${role}"`,
        });
      }
    }
    if (question.attributes.consent_decision === true && !isDecisionQuestion(question)) {
      problems.push({
        question: question.id,
        field: "attributes.consent_decision",
        message: "only a select_one question can record the consent decision",
      });
    }
  }
  if (signatures === 0) {
    problems.push({ field: "questions", message: "a consent needs at least one consent_signature question" });
  }
  return problems;
}

/** Parses and checks a consent definition (survey format, then the consent rules). */
export function parseConsentDefinition(
  json: unknown,
): { ok: true; definition: SurveyDefinition } | { ok: false; problems: DefinitionProblem[] } {
  const parsed = parseSurveyDefinition(json);
  if (!parsed.ok) return parsed;
  const problems = consentProblems(parsed.definition);
  return problems.length > 0 ? { ok: false, problems } : parsed;
}

const parsedVersions = new Map<number, SurveyDefinition>();
const PARSED_VERSIONS_MAX = 200;

/** A published version of a consent, parsed (cached by row id: published versions never change). */
export async function consentVersionOf(db: Executor, consentId: number, version: number) {
  const [row] = await db
    .select()
    .from(consentVersions)
    .where(and(eq(consentVersions.consentId, consentId), eq(consentVersions.version, version)));
  if (!row) return undefined;
  let definition = parsedVersions.get(row.id);
  if (!definition) {
    const parsed = parseSurveyDefinition(row.definition);
    if (!parsed.ok) throw new Error(`Stored consent version ${row.id} does not parse`);
    definition = parsed.definition;
    if (parsedVersions.size >= PARSED_VERSIONS_MAX) parsedVersions.clear();
    parsedVersions.set(row.id, definition);
  }
  return { row, definition };
}

export type ConsentImportOutcome = {
  created: boolean;
  consentId: number;
  title: string;
  studyId: number;
  version: number;
  /** Participants sent back to awaiting_participant on the new version (or offered a new consent). */
  participantsAsked: number;
};

/**
 * Publishes a consent definition in a study (see the module header). Throws ImportError with the
 * problems when it does not pass; nothing is stored then. `now` dates the version (the demo
 * seeds versions in the past).
 */
export async function importConsent(
  db: Executor,
  options: {
    studyId: number;
    json: unknown;
    now?: Date;
    /** A new consent is offered to every participant of the study unless this is false. */
    offerToStudy?: boolean;
  },
): Promise<ConsentImportOutcome> {
  const parsed = parseConsentDefinition(options.json);
  if (!parsed.ok) throw new ImportError("The definition is not a valid consent", parsed.problems);
  const definition = parsed.definition;
  const key = String(definition.id);
  const title = definition.title!.trim();
  const now = options.now ?? new Date();

  return db.transaction(async (tx) => {
    const [study] = await tx.select({ id: studies.id }).from(studies).where(eq(studies.id, options.studyId));
    if (!study) throw new ImportError(`Study ${options.studyId} does not exist`);
    const [existing] = await tx
      .select()
      .from(consents)
      .where(and(eq(consents.studyId, options.studyId), eq(consents.definitionKey, key)))
      .for("update");
    let consentId: number;
    let version: number;
    if (existing) {
      const [latest] = await tx
        .select({ version: consentVersions.version })
        .from(consentVersions)
        .where(eq(consentVersions.consentId, existing.id))
        .orderBy(desc(consentVersions.version))
        .limit(1);
      consentId = existing.id;
      version = Math.max(latest?.version ?? 0, existing.version) + 1;
    } else {
      const [created] = await tx
        .insert(consents)
        .values({
          studyId: options.studyId,
          title,
          type: CONSENT_TYPE,
          version: 1,
          dateDeployed: now,
          definitionKey: key,
        })
        .returning({ id: consents.id });
      consentId = created!.id;
      version = 1;
    }
    const declared = definition.consent_version;
    if (declared !== undefined && String(declared) !== String(version)) {
      throw new ImportError(
        `The file says consent_version ${declared}, but the next version of this consent is ${version}`,
      );
    }
    const stored = {
      ...(options.json as Record<string, unknown>),
      consent_id: consentId,
      consent_version: version,
      version,
    };
    await tx.insert(consentVersions).values({ consentId, version, definition: stored, publishedAt: now });
    let participantsAsked: number;
    if (existing) {
      await tx.update(consents).set({ title, version, dateDeployed: now }).where(eq(consents.id, consentId));
      const asked = await tx
        .update(consentParticipants)
        .set({ version, status: "awaiting_participant" })
        .where(and(eq(consentParticipants.consentId, consentId), ne(consentParticipants.status, "declined")))
        .returning({ participantId: consentParticipants.participantId });
      participantsAsked = asked.length;
    } else if (options.offerToStudy === false) {
      participantsAsked = 0;
    } else {
      const studyParticipants = await tx
        .select({ id: participants.id })
        .from(participants)
        .where(eq(participants.studyId, options.studyId));
      if (studyParticipants.length > 0) {
        await tx.insert(consentParticipants).values(
          studyParticipants.map((participant) => ({
            consentId,
            participantId: participant.id,
            version,
            status: "awaiting_participant",
          })),
        );
      }
      participantsAsked = studyParticipants.length;
    }
    return { created: !existing, consentId, title, studyId: options.studyId, version, participantsAsked };
  });
}
