/**
 * The columns of one instrument definition version's CSV, as REDCap's export lays them out, and
 * what each submission writes in them:
 *
 * - the leading columns: submission, participant, subject id, site, who completed it, the
 *   device's completion and start times and the server's receipt time (ISO UTC);
 * - one column per question, named by its id, in the definition's order; questions that take no
 *   answer (introduction, pdf, prompt, submission) have none;
 * - a matrix's rows and a multiple-field question's fields in their own columns,
 *   {question}___{row};
 * - a select-multiple question's choices one column each, {question}___{choice}, holding 1 when
 *   chosen and 0 when not (empty when the question was not answered);
 * - choices written as their choice id (the code): the codebook says what each means;
 * - photos as their file names (separated by |), a drawing as the word "drawing" (the data URL
 *   of the image is not data a spreadsheet can use);
 * - then one column per score, score_{id}, with the server's final value.
 *
 * Skipped questions, and questions the flow did not show, are empty.
 */
import type { AnswerEntry, AnswerRecord } from "../../../core/contracts/survey-answers.ts";
import type { Question, SurveyDefinition } from "../../../core/contracts/survey-definition.ts";
import type { ScoredScore } from "../../../core/contracts/survey-submission.ts";
import type { ExportInstrumentVersion, ExportSubmission } from "../export-source.ts";
import { isoCell, type CsvCell } from "./csv-cells.ts";

/** Question types that take no answer: no column. */
const NO_ANSWER_TYPES = new Set(["introduction", "pdf", "prompt", "submission"]);

/** What a drawing's column holds instead of its data URL. */
export const DRAWING_MARKER = "drawing";

/** The codebook's description of one column. */
export type CodebookEntry = {
  column: string;
  questionId: string;
  label: string;
  type: string;
  /** code, label | code, label */
  choices: string;
  /** code=score | code=score, where the choices carry scores. */
  choiceScores: string;
  formula: string;
};

/** Where the submission's leading columns come from. */
export type LeadingContext = {
  siteLabel: (siteId: number) => string;
  userName: (userId: number) => string;
};

type Column = CodebookEntry & {
  value: (answers: Map<string, AnswerRecord>, scores: ScoredScore[]) => CsvCell;
};

const LEADING: { column: string; label: string; type: string }[] = [
  { column: "submission_id", label: "The submission's id on the server", type: "identifier" },
  { column: "participant_id", label: "The participant's id on the server", type: "identifier" },
  { column: "subject_id", label: "The participant's subject id in the study", type: "identifier" },
  { column: "site_id", label: "The participant's site", type: "identifier" },
  { column: "site_label", label: "The participant's site's name", type: "text" },
  { column: "completed_by_user_id", label: "The clinician who completed it", type: "identifier" },
  { column: "completed_by_name", label: "The clinician's name", type: "text" },
  {
    column: "device_completed_at",
    label: "When the device says it was completed (ISO 8601, UTC)",
    type: "datetime",
  },
  {
    column: "device_started_at",
    label: "When the device says it was started (ISO 8601, UTC)",
    type: "datetime",
  },
  { column: "server_received_at", label: "When the server received it (ISO 8601, UTC)", type: "datetime" },
];

function ordered<T>(record: Record<string, T> | undefined, order: string[] | undefined): [string, T][] {
  if (!record) return [];
  const ids = order && order.length > 0 ? order : Object.keys(record);
  return ids.flatMap((id) => (record[id] === undefined ? [] : [[id, record[id]] as [string, T]]));
}

function choiceCode(entry: AnswerEntry): string {
  return entry.choice_id ?? (entry.value === null ? "" : String(entry.value));
}

function answered(record: AnswerRecord | undefined): record is AnswerRecord {
  return record !== undefined && record.state === "ANSWERED" && record.answer.length > 0;
}

function choicesText(question: Question): { choices: string; choiceScores: string } {
  const choices = ordered(question.choices, question.choices_order);
  return {
    choices: choices.map(([code, choice]) => `${code}, ${choice.label}`).join(" | "),
    choiceScores: choices
      .filter(([, choice]) => choice.score_value !== undefined)
      .map(([code, choice]) => `${code}=${choice.score_value}`)
      .join(" | "),
  };
}

function plainValue(entries: AnswerEntry[]): CsvCell {
  const values = entries.map((entry) => entry.value).filter((value) => value !== null && value !== "");
  if (values.length === 0) return "";
  if (values.length === 1) return values[0];
  return values.map(String).join("|");
}

function isDataUrl(value: unknown) {
  return typeof value === "string" && value.startsWith("data:");
}

/** The columns of one question. */
function questionColumns(id: string, question: Question): Column[] {
  const base = { questionId: id, type: question.type, formula: "", choices: "", choiceScores: "" };
  const label = question.label;
  const record = (answers: Map<string, AnswerRecord>) => answers.get(id);
  switch (question.type) {
    case "matrix": {
      const columnChoices = choicesText(question);
      return ordered(question.questions, question.questions_order).map(([rowId, row]) => ({
        ...base,
        ...columnChoices,
        column: `${id}___${rowId}`,
        label: `${label}: ${row.label}`,
        value: (answers) => {
          const answer = record(answers);
          if (!answered(answer)) return "";
          const entry = answer.answer.find((candidate) => candidate.question === rowId);
          return entry ? choiceCode(entry) : "";
        },
      }));
    }
    case "multiple_field":
      return ordered(question.questions, question.questions_order).map(([fieldId, field]) => ({
        ...base,
        type: `multiple_field ${field.type ?? "text"}`,
        column: `${id}___${fieldId}`,
        label: `${label}: ${field.label}`,
        value: (answers) => {
          const answer = record(answers);
          if (!answered(answer)) return "";
          return plainValue(answer.answer.filter((entry) => entry.question === fieldId));
        },
      }));
    case "select_multiple":
      return ordered(question.choices, question.choices_order).map(([code, choice]) => ({
        ...base,
        column: `${id}___${code}`,
        label: `${label}: ${choice.label}`,
        choices: "1, Checked | 0, Unchecked",
        choiceScores: choice.score_value === undefined ? "" : `1=${choice.score_value}`,
        value: (answers) => {
          const answer = record(answers);
          if (!answered(answer)) return "";
          return answer.answer.some((entry) => choiceCode(entry) === code) ? 1 : 0;
        },
      }));
    case "select_one":
    case "likert":
      return [
        {
          ...base,
          ...choicesText(question),
          column: id,
          label,
          value: (answers) => {
            const answer = record(answers);
            return answered(answer) ? answer.answer.map(choiceCode).join("|") : "";
          },
        },
      ];
    case "scribble":
      return [
        {
          ...base,
          column: id,
          label,
          value: (answers) => (answered(record(answers)) ? DRAWING_MARKER : ""),
        },
      ];
    default:
      return [
        {
          ...base,
          column: id,
          label,
          value: (answers) => {
            const answer = record(answers);
            if (!answered(answer)) return "";
            // A signature drawn in a form arrives as a data URL: say that it is there, not its bytes.
            if (answer.answer.some((entry) => isDataUrl(entry.value))) return DRAWING_MARKER;
            return plainValue(answer.answer);
          },
        },
      ];
  }
}

function scoreColumns(definition: SurveyDefinition): Column[] {
  return definition.scores.map((score) => ({
    column: `score_${score.id}`,
    questionId: "",
    label: score.name,
    type: "score",
    choices: "",
    choiceScores: "",
    formula: score.formula,
    value: (_answers, scores) => scores.find((scored) => scored.id === score.id)?.final_value ?? "",
  }));
}

/** The columns of one definition version, and the line each of its submissions makes. */
export class InstrumentColumns {
  readonly fileName: string;
  private readonly columns: Column[];

  constructor(
    readonly version: ExportInstrumentVersion,
    private readonly context: LeadingContext,
  ) {
    this.fileName = `${version.slug}_v${version.versionNumber}.csv`;
    const definition = version.definition;
    this.columns = [
      ...definition.order.flatMap((id) => {
        const question = definition.questions[id];
        return question && !NO_ANSWER_TYPES.has(question.type) ? questionColumns(id, question) : [];
      }),
      ...scoreColumns(definition),
    ];
  }

  header(): string[] {
    return [...LEADING.map((column) => column.column), ...this.columns.map((column) => column.column)];
  }

  codebook(): CodebookEntry[] {
    return [
      ...LEADING.map((column) => ({
        ...column,
        questionId: "",
        choices: "",
        choiceScores: "",
        formula: "",
      })),
      ...this.columns.map(({ value: _value, ...entry }) => entry),
    ];
  }

  row(submission: ExportSubmission): CsvCell[] {
    const answers = new Map(submission.answers.map((record) => [record.id, record]));
    return [
      submission.id,
      submission.participant.id,
      submission.participant.subjectId,
      submission.participant.siteId,
      this.context.siteLabel(submission.participant.siteId),
      submission.completedBy,
      this.context.userName(submission.completedBy),
      isoCell(submission.deviceCompletedAt),
      isoCell(submission.deviceStartedAt),
      isoCell(submission.receivedAt),
      ...this.columns.map((column) => column.value(answers, submission.scores)),
    ];
  }
}
