/**
 * The linkIds the portal gives Questionnaire items, shared by the export (Questionnaire and
 * QuestionnaireResponse) and the import, which reads them back. A question keeps its id; a
 * matrix row or a multiple-field field is "{question}/{row}" because linkIds are unique across
 * the whole Questionnaire while row ids are only unique within their question; sibling groups
 * and scores get a prefix because their ids may repeat a question's.
 */
import { SCORE_LINK_PREFIX } from "./fhir-resources.ts";

export const SIBLING_LINK_PREFIX = "sibling:";

export function subItemLinkId(questionId: string, subQuestionId: string) {
  return `${questionId}/${subQuestionId}`;
}

export function siblingGroupLinkId(groupId: string) {
  return `${SIBLING_LINK_PREFIX}${groupId}`;
}

export function scoreLinkId(scoreId: string) {
  return `${SCORE_LINK_PREFIX}${scoreId}`;
}

/** The help text of a question, as SDC writes it: a display child with item control "help". */
export function helpLinkId(questionId: string) {
  return `${questionId}/help`;
}
