/**
 * A participant's consent status from who has signed what (spec 02, consent statuses), read from
 * the consent definition and the answers of every signing so far:
 *   a declining decision                             -> declined
 *   no decision yet, or a participant or caregiver
 *   signature unsigned                               -> awaiting_participant
 *   a clinician (clinro) signature unsigned           -> awaiting_clinro
 *   a witness signature unsigned                      -> awaiting_witness
 *   otherwise                                         -> complete
 * A signature question that its show-if logic hides does not count (a caregiver signature shown
 * only when a caregiver signs, say). Plain functions: the server (routes, seed, import) and the app (what a queued consent reaches) use them.
 */
import type { SignerRole } from "../contracts/roles.ts";
import type { ConsentParticipantStatus } from "../contracts/consents.ts";
import type { AnswerRecord } from "../contracts/survey-answers.ts";
import type { Question, SurveyDefinition } from "../contracts/survey-definition.ts";
import { choiceOf, questionOf, selectedChoiceId } from "./definition-lookup.ts";
import { isShown } from "./show-if.ts";

/** The signer of a consent_signature question; undefined for any other question. */
export function signerRoleOf(question: Question): SignerRole | undefined {
  if (question.type !== "consent_signature") return undefined;
  const role = question.attributes.signer_role;
  if (role !== undefined) return role;
  // Definitions written before signer_role: the user_type says whose signature it is.
  return question.attributes.user_type ?? "participant";
}

/** Whether a select_one question records the consent decision. */
export function isDecisionQuestion(question: Question) {
  return question.type === "select_one" && question.attributes.consent_decision === true;
}

export function isSigned(record: AnswerRecord | undefined) {
  return record !== undefined && record.state === "ANSWERED" && record.answer.length > 0;
}

/** Latest record per question: later signings' records replace earlier ones of the same question. */
export function mergeRecords(signings: readonly (readonly AnswerRecord[])[]): AnswerRecord[] {
  const byId = new Map<string, AnswerRecord>();
  for (const records of signings) for (const record of records) byId.set(record.id, record);
  return [...byId.values()];
}

/** Whether the records hold a decision that declines the consent. */
export function hasDeclined(definition: SurveyDefinition, records: readonly AnswerRecord[]) {
  return records.some((record) => {
    const question = questionOf(definition, record.id);
    if (!question || !isDecisionQuestion(question) || record.state !== "ANSWERED") return false;
    return record.answer.some((entry) => {
      const choiceId = selectedChoiceId(entry);
      return choiceId !== undefined && choiceOf(question, choiceId)?.declines === true;
    });
  });
}

/** The status of a participant whose signings so far hold these records (latest per question). */
export function consentStatusOf(
  definition: SurveyDefinition,
  records: readonly AnswerRecord[],
): ConsentParticipantStatus {
  if (hasDeclined(definition, records)) return "declined";
  const byId = new Map(records.map((record) => [record.id, record]));
  const lookup = (questionId: string) => byId.get(questionId);
  const unsigned = new Set<SignerRole>();
  for (const questionId of definition.order) {
    const question = questionOf(definition, questionId);
    if (!question) continue;
    // The decision is the participant's: until it is made, the participant is awaited.
    const role = isDecisionQuestion(question) ? "participant" : signerRoleOf(question);
    if (role === undefined || isSigned(lookup(questionId))) continue;
    if (!isShown(question, lookup, definition)) continue;
    unsigned.add(role);
  }
  if (unsigned.has("participant") || unsigned.has("caregiver")) return "awaiting_participant";
  if (unsigned.has("clinro")) return "awaiting_clinro";
  if (unsigned.has("witness")) return "awaiting_witness";
  return "complete";
}
