/**
 * One submission as a FHIR R4 QuestionnaireResponse of its Questionnaire (questionnaire-of.ts):
 * the same linkIds and nesting (matrix rows and multiple-field fields inside their group,
 * sibling groups as groups), each answer typed as its item is (a choice as a Coding of the
 * choice id, a date as a date, a drawing as an attachment...), and each score as the answer of
 * its calculated item with the final value the server computed.
 *
 * The participant is the subject and the clinician the author, each referenced by identifier
 * (references.ts) because the export holds no Patient or Practitioner resources; authored is the device's completion time. The server's receipt time, the device's
 * start time, the site and the browser travel in the portal's extensions.
 */
import type { AnswerEntry, AnswerRecord } from "../../../core/contracts/survey-answers.ts";
import type { Question, SurveyDefinition } from "../../../core/contracts/survey-definition.ts";
import { orderedSubQuestions } from "../../../core/survey-engine/answer-values.ts";
import {
  choiceOf,
  questionOf,
  selectedChoiceId,
  subQuestionOf,
} from "../../../core/survey-engine/definition-lookup.ts";
import { dateOf, numberOf } from "../../../core/survey-engine/show-if.ts";
import type { ExportSite, ExportSubmission, ExportUser } from "../export-source.ts";
import { fhirId, versionedCanonical } from "./canonical-url.ts";
import {
  CLINRO_EXTENSION,
  type AnswerValue,
  type Extension,
  type QuestionnaireResponse,
  type ResponseItem,
} from "./fhir-resources.ts";
import { scoreLinkId, siblingGroupLinkId, subItemLinkId } from "./link-ids.ts";
import { participantReference, staffReference } from "./references.ts";

const DATA_URL = /^data:([^;,]+)(?:;[^,]*)?;base64,(.+)$/s;
const TIME_OF_DAY = /T?(\d{2}):(\d{2})(?::(\d{2}))?/;

function textValue(value: AnswerEntry["value"]) {
  if (value === null || value === undefined) return undefined;
  const text = String(value);
  return text.trim() === "" ? undefined : text;
}

/** The answer of one entry, typed as the item of this question type is; undefined when empty. */
function answerOf(question: Question, type: string, entry: AnswerEntry): AnswerValue | undefined {
  switch (type) {
    case "select_one":
    case "select_multiple":
    case "likert":
    case "matrix": {
      const code = selectedChoiceId(entry);
      if (code === undefined || code === "") return undefined;
      const label = choiceOf(question, code)?.label ?? entry.label;
      return { valueCoding: { code, ...(label.trim() === "" ? {} : { display: label }) } };
    }
    case "integer":
    case "numeric_rating_scale": {
      const number = numberOf(entry.value);
      if (number === undefined) return undefined;
      return Number.isInteger(number) ? { valueInteger: number } : { valueDecimal: number };
    }
    case "decimal": {
      const number = numberOf(entry.value);
      return number === undefined ? undefined : { valueDecimal: number };
    }
    case "date": {
      const date = dateOf(entry.value);
      return date === undefined ? undefined : { valueDate: date };
    }
    case "datetime": {
      const text = textValue(entry.value);
      return text === undefined || Number.isNaN(Date.parse(text))
        ? undefined
        : { valueDateTime: new Date(text).toISOString() };
    }
    case "time": {
      const match = TIME_OF_DAY.exec(textValue(entry.value) ?? "");
      return match ? { valueTime: `${match[1]}:${match[2]}:${match[3] ?? "00"}` } : undefined;
    }
    case "image_capture":
    case "scribble":
    case "consent_signature": {
      const text = textValue(entry.value);
      if (text === undefined) return undefined;
      const data = DATA_URL.exec(text);
      if (data) return { valueAttachment: { contentType: data[1]!, data: data[2]! } };
      return {
        valueAttachment: { title: text, ...(type === "image_capture" ? { contentType: "image/jpeg" } : {}) },
      };
    }
    case "text": {
      const text = textValue(entry.value);
      return text === undefined ? undefined : { valueString: text };
    }
    default:
      return undefined;
  }
}

function fieldType(question: Question, subQuestionId: string) {
  const sub = subQuestionOf(question, subQuestionId);
  if (question.type === "matrix") return "matrix";
  return sub?.type === "integer" || sub?.type === "decimal" ? sub.type : "text";
}

/** The response item of one answered record, or undefined when it holds no answer. */
function responseItemOf(question: Question, record: AnswerRecord): ResponseItem | undefined {
  if (record.state !== "ANSWERED") return undefined;
  if (question.type === "matrix" || question.type === "multiple_field") {
    const rows = orderedSubQuestions(question).flatMap((sub) => {
      const answer = record.answer
        .filter((entry) => entry.question === sub.id)
        .map((entry) => answerOf(question, fieldType(question, sub.id), entry))
        .filter((value) => value !== undefined);
      return answer.length > 0 ? [{ linkId: subItemLinkId(question.id, sub.id), answer }] : [];
    });
    return rows.length > 0 ? { linkId: question.id, item: rows } : undefined;
  }
  const answer = record.answer
    .map((entry) => answerOf(question, question.type, entry))
    .filter((value) => value !== undefined);
  return answer.length > 0 ? { linkId: question.id, answer } : undefined;
}

/** The response's items in the definition's order, sibling groups nested as in the Questionnaire. */
export function responseItemsOf(
  definition: SurveyDefinition,
  answers: readonly AnswerRecord[],
  scores: ExportSubmission["scores"],
): ResponseItem[] {
  const recordOf = new Map(answers.map((record) => [record.id, record]));
  const items: ResponseItem[] = [];
  const groups = new Map<string, ResponseItem>();
  for (const id of definition.order) {
    const question = questionOf(definition, id);
    const record = recordOf.get(id);
    if (!question || !record) continue;
    const item = responseItemOf(question, record);
    if (!item) continue;
    const groupId = question.sibling_id;
    if (groupId === undefined || definition.siblings[groupId] === undefined) {
      items.push(item);
      continue;
    }
    let group = groups.get(groupId);
    if (!group) {
      group = { linkId: siblingGroupLinkId(groupId), item: [] };
      groups.set(groupId, group);
      items.push(group);
    }
    group.item!.push(item);
  }
  for (const score of scores) {
    if (definition.scores.some((defined) => defined.id === score.id)) {
      items.push({ linkId: scoreLinkId(score.id), answer: [{ valueDecimal: score.final_value }] });
    }
  }
  return items;
}

export type ResponseContext = {
  studyId: number;
  questionnaireUrl: string;
  definition: SurveyDefinition;
  site: ExportSite | undefined;
  author: ExportUser | undefined;
  publicUrl: string | undefined;
};

export function questionnaireResponseOf(
  submission: ExportSubmission,
  context: ResponseContext,
): QuestionnaireResponse {
  const extension: Extension[] = [
    { url: CLINRO_EXTENSION.receivedAt, valueDateTime: submission.receivedAt.toISOString() },
  ];
  if (submission.deviceStartedAt && !Number.isNaN(Date.parse(submission.deviceStartedAt))) {
    extension.push({
      url: CLINRO_EXTENSION.deviceStartedAt,
      valueDateTime: new Date(submission.deviceStartedAt).toISOString(),
    });
  }
  if (context.site && context.site.label.trim() !== "")
    extension.push({ url: CLINRO_EXTENSION.site, valueString: context.site.label });
  if (submission.browserInfo.trim() !== "")
    extension.push({ url: CLINRO_EXTENSION.browser, valueString: submission.browserInfo });
  const items = responseItemsOf(context.definition, submission.answers, submission.scores);
  return {
    resourceType: "QuestionnaireResponse",
    id: fhirId("submission", submission.id),
    extension,
    questionnaire: versionedCanonical(context.questionnaireUrl, submission.versionNumber),
    status: "completed",
    subject: participantReference(submission.participant, context.studyId, context.publicUrl),
    authored: submission.deviceCompletedAt.toISOString(),
    author: staffReference(context.author, submission.completedBy, context.publicUrl),
    ...(items.length > 0 ? { item: items } : {}),
  };
}
