/**
 * Consent filtering and pre-filling (spec 02 section 4, "Consent filtering").
 *
 * A consent is signed in several sessions on one definition: the participant (and caregiver) and
 * the clinician on the clinician's tablet, later a witness. Each session sees:
 * - the questions earlier sessions answered (and the prompts they read), pre-filled from the
 *   server's records, read-only and complete (shown so the signer reads what they sign, never
 *   sent again); a skipped answerable question stays open;
 * - the questions still open, except those of the other staff side: a witness does not see
 *   unanswered clinician questions (attributes.user_type "clinro"), a clinician does not see
 *   unanswered witness questions (user_type "witness"). The clinician roles 11, 12, 13 and 16
 *   count as clinician;
 * - the viewer's own open signature questions required: a staff session ends signed.
 *
 * Plain functions over the definition and records: the completion page, its tests and the
 * server's status rules read the same meaning of "answered".
 */
import type { AnswerRecord } from "../contracts/survey-answers.ts";
import { holdsAnswer } from "./answer-state.ts";
import type { Question, SurveyDefinition } from "../contracts/survey-definition.ts";
import { isClinicianRole, isWitness } from "../contracts/roles.ts";
import { nextStepId, type FlowState } from "./flow.ts";

/**
 * Who is completing the consent. "other": a role that is neither (it may not sign for the site
 * nor witness, so it sees neither side's open questions).
 */
export type ConsentViewer = "clinician" | "witness" | "other";

export function consentViewerOf(role: string | undefined): ConsentViewer {
  if (isWitness(role)) return "witness";
  return isClinicianRole(role) ? "clinician" : "other";
}

/** A record the server holds that counts as answered: ANSWERED with at least one entry. */
export function isAnsweredRecord(record: AnswerRecord) {
  return record.state === "ANSWERED" && record.answer.length > 0;
}

/** Whose question this is: the staff side named by attributes.user_type, else the participant's. */
function staffSideOf(question: Question): "clinro" | "witness" | undefined {
  return question.attributes.user_type;
}

/** Whether a question is left out for this viewer: another staff side's question nobody answered yet. */
export function isHiddenFromViewer(
  question: Question,
  viewer: ConsentViewer,
  answeredIds: ReadonlySet<string>,
) {
  if (answeredIds.has(question.id)) return false;
  const side = staffSideOf(question);
  if (side === "clinro") return viewer !== "clinician";
  if (side === "witness") return viewer !== "witness";
  return false;
}

export type ConsentSession = {
  /** The definition as this viewer walks it: hidden questions are out of its order and groups. */
  definition: SurveyDefinition;
  /** The server's answered records of questions still in the definition: read-only, complete. */
  prefilled: AnswerRecord[];
  readOnlyIds: ReadonlySet<string>;
};

/**
 * The definition this viewer completes, with the earlier sessions' answers. The questions map
 * keeps every question (show-if terms may name a hidden one); only the order and the sibling
 * groups lose the hidden ones, so the progress counts what this viewer walks through.
 */
export function consentSession(
  definition: SurveyDefinition,
  viewer: ConsentViewer,
  serverRecords: readonly AnswerRecord[],
): ConsentSession {
  const answered = serverRecords.filter(
    (record) => isAnsweredRecord(record) && definition.questions[record.id] !== undefined,
  );
  const answeredIds = new Set(answered.map((record) => record.id));
  // What an earlier session read (a prompt holds no answer) was read: it is not sent again. A
  // skipped answerable question stays open (an optional signature may be given later).
  const read = serverRecords.filter((record) => {
    const question = definition.questions[record.id];
    return question !== undefined && !answeredIds.has(record.id) && !holdsAnswer(question);
  });
  const kept = [...answered, ...read];
  const hidden = (questionId: string) => {
    const question = definition.questions[questionId];
    return question !== undefined && isHiddenFromViewer(question, viewer, answeredIds);
  };
  const siblings = Object.fromEntries(
    Object.entries(definition.siblings)
      .map(([siblingId, ids]) => [siblingId, ids.filter((id) => !hidden(id))] as const)
      .filter(([, ids]) => ids.length > 0),
  );
  return {
    definition: {
      ...definition,
      questions: withOwnSignaturesRequired(definition.questions, viewer, answeredIds),
      order: definition.order.filter((id) => !hidden(id)),
      siblings,
    },
    prefilled: kept.map((record) => ({
      ...record,
      answer: record.answer.map((entry) => ({ ...entry })),
    })),
    readOnlyIds: new Set(kept.map((record) => record.id)),
  };
}

const OWN_SIGNER_ROLE = { clinician: "clinro", witness: "witness", other: undefined } as const;

/**
 * The viewer's own signature questions still open are required in their session: a clinician
 * or witness who finishes a consent session signs it. Without this, a staff signature left empty
 * (definitions mark it optional, as another session may give it) finished the session while the
 * consent still awaited that very signature.
 */
function withOwnSignaturesRequired(
  questions: SurveyDefinition["questions"],
  viewer: ConsentViewer,
  answeredIds: ReadonlySet<string>,
): SurveyDefinition["questions"] {
  const ownRole = OWN_SIGNER_ROLE[viewer];
  if (ownRole === undefined) return questions;
  const isOwnOpenSignature = (question: Question) =>
    question.type === "consent_signature" &&
    (question.attributes.signer_role ?? question.attributes.user_type) === ownRole &&
    !answeredIds.has(question.id) &&
    !question.attributes.required;
  return Object.fromEntries(
    Object.entries(questions).map(([id, question]) => [
      id,
      isOwnOpenSignature(question)
        ? { ...question, attributes: { ...question.attributes, required: true } }
        : question,
    ]),
  );
}

/** The flow of a consent session: it starts with the earlier answers in place. */
export function startConsentFlow(session: ConsentSession, now: Date): FlowState {
  return {
    shown: [nextStepId(session.definition, session.prefilled, null)],
    records: session.prefilled,
    startedAt: now.toISOString(),
  };
}

/** What this session sends: its own records, never the read-only ones it was given. */
export function sessionRecords(records: readonly AnswerRecord[], readOnlyIds: ReadonlySet<string>) {
  return records.filter((record) => !readOnlyIds.has(record.id));
}
