/**
 * The survey definition of `npm run bench:survey`: N questions in a fixed rotation of seven
 * types (select one scored 0 to 4, select multiple of 4, text, integer 0 to 7, numeric rating
 * scale 1 to 10, matrix of 3 rows and 5 columns, Yes/No select one); every fifth question has a
 * show-if on the one before it (`>` for numbers and scored choices, `=` for Yes/No, is_answered
 * for the others); one score sums every select-one question. Next to the definition comes the
 * answer the bench gives each question: every show-if holds with those answers, so the flow
 * visits every question and question k is always followed by question k + 1.
 */
import type { Question, ShowIfTerm, SurveyDefinition } from "../core/contracts/survey-definition.ts";
import { EXPRESSION_MAX_LENGTH } from "../core/survey-engine/expression.ts";

export const BENCH_QUESTION_TYPES = [
  "scored",
  "multiple",
  "text",
  "integer",
  "nrs",
  "matrix",
  "yes_no",
] as const;
export type BenchQuestionKind = (typeof BENCH_QUESTION_TYPES)[number];

/** What the bench does to answer a question, through the question's own controls. */
export type PlannedAnswer =
  | { kind: "scored" | "yes_no"; choiceId: string; choiceLabel: string }
  | { kind: "multiple"; choices: { id: string; label: string }[] }
  | { kind: "text"; text: string }
  | { kind: "integer"; value: number }
  | { kind: "nrs"; value: number }
  | { kind: "matrix"; rows: { rowId: string; rowLabel: string; choiceId: string; choiceLabel: string }[] };

export type PlannedQuestion = { id: string; kind: BenchQuestionKind; label: string; answer: PlannedAnswer };

export type BenchSurvey = {
  definition: SurveyDefinition;
  /** In the order asked; plan[k - 1] is question k. */
  plan: PlannedQuestion[];
};

/** Question k (1-based) is `q<k>`: short ids keep the score formula under the formula length limit. */
export const questionIdOf = (position: number) => `q${position}`;

const SCORED_CHOICES = [
  { id: "s0", label: "Absent", score: 0 },
  { id: "s1", label: "Mild", score: 1 },
  { id: "s2", label: "Moderate", score: 2 },
  { id: "s3", label: "Severe", score: 3 },
  { id: "s4", label: "Very severe", score: 4 },
];
const MULTIPLE_CHOICES = [
  { id: "m1", label: "Headache" },
  { id: "m2", label: "Nausea" },
  { id: "m3", label: "Fatigue" },
  { id: "m4", label: "Dizziness" },
];
const MATRIX_ROWS = [
  { id: "r1", label: "Trouble falling asleep" },
  { id: "r2", label: "Waking during the night" },
  { id: "r3", label: "Waking too early" },
];
const MATRIX_COLUMNS = [
  { id: "never", label: "Never", score: 0 },
  { id: "rarely", label: "Rarely", score: 1 },
  { id: "sometimes", label: "Sometimes", score: 2 },
  { id: "often", label: "Often", score: 3 },
  { id: "always", label: "Always", score: 4 },
];
const YES_NO = [
  { id: "yes", label: "Yes", score: 1 },
  { id: "no", label: "No", score: 0 },
];
export const INTEGER_RANGE = { min: 0, max: 7 };
export const NRS_RANGE = { min: 1, max: 10 };
export const TEXT_ANSWER_LENGTH = 140;

/** Show-if thresholds; the planned answers are always above them. */
const SCORED_ABOVE = 1;
const INTEGER_ABOVE = 3;
const NRS_ABOVE = 5;

const KIND_LABELS: Record<BenchQuestionKind, string> = {
  scored: "How severe was the symptom over the past week?",
  multiple: "Which of these did the participant report?",
  text: "Describe what the participant reported.",
  integer: "On how many of the last 7 days did it happen?",
  nrs: "Rate the intensity on a scale from 1 to 10.",
  matrix: "How often did the participant have these sleep problems?",
  yes_no: "Did the participant take the medication as prescribed?",
};

function choicesOf(choices: { id: string; label: string; score?: number }[]) {
  return {
    choices: Object.fromEntries(
      choices.map((choice) => [
        choice.id,
        choice.score === undefined
          ? { label: choice.label }
          : { label: choice.label, score_value: choice.score },
      ]),
    ),
    choices_order: choices.map((choice) => choice.id),
  };
}

/** 140 characters of text that differ from one question to the next. */
function textAnswer(position: number) {
  const base = `Answer to question ${position}: the participant reported mild symptoms in the evening, `;
  return (base + "x".repeat(TEXT_ANSWER_LENGTH)).slice(0, TEXT_ANSWER_LENGTH);
}

function questionAndAnswer(
  position: number,
  kind: BenchQuestionKind,
): { question: Question; answer: PlannedAnswer } {
  const id = questionIdOf(position);
  const label = `${position}. ${KIND_LABELS[kind]}`;
  const base = { id, label, attributes: { required: true } };
  // Vary the answers a little with the position; every one stays above the show-if thresholds.
  const variant = position % 3;
  switch (kind) {
    case "scored": {
      const choice = SCORED_CHOICES[2 + variant]!;
      return {
        question: { ...base, type: "select_one", ...choicesOf(SCORED_CHOICES) },
        answer: { kind, choiceId: choice.id, choiceLabel: choice.label },
      };
    }
    case "multiple": {
      const picked =
        variant === 0 ? [MULTIPLE_CHOICES[0]!] : [MULTIPLE_CHOICES[variant]!, MULTIPLE_CHOICES[3]!];
      return {
        question: {
          ...base,
          type: "select_multiple",
          attributes: { required: true, allowMultipleAnswers: true },
          ...choicesOf(MULTIPLE_CHOICES),
        },
        answer: {
          kind,
          choices: picked.map(({ id: choiceId, label: choiceLabel }) => ({
            id: choiceId,
            label: choiceLabel,
          })),
        },
      };
    }
    case "text":
      return { question: { ...base, type: "text" }, answer: { kind, text: textAnswer(position) } };
    case "integer":
      return {
        question: {
          ...base,
          type: "integer",
          attributes: { required: true, ...INTEGER_RANGE, unit: "days" },
        },
        answer: { kind, value: INTEGER_ABOVE + 1 + variant },
      };
    case "nrs":
      return {
        question: {
          ...base,
          type: "numeric_rating_scale",
          attributes: { required: true, ...NRS_RANGE, min_label: "None", max_label: "Worst imaginable" },
        },
        answer: { kind, value: NRS_ABOVE + 2 + variant },
      };
    case "matrix":
      return {
        question: {
          ...base,
          type: "matrix",
          questions: Object.fromEntries(
            MATRIX_ROWS.map((row) => [
              row.id,
              { id: row.id, label: row.label, attributes: { required: true } },
            ]),
          ),
          questions_order: MATRIX_ROWS.map((row) => row.id),
          ...choicesOf(MATRIX_COLUMNS),
        },
        answer: {
          kind,
          rows: MATRIX_ROWS.map((row, index) => {
            const column = MATRIX_COLUMNS[(index + variant + 1) % MATRIX_COLUMNS.length]!;
            return { rowId: row.id, rowLabel: row.label, choiceId: column.id, choiceLabel: column.label };
          }),
        },
      };
    case "yes_no":
      return {
        question: { ...base, type: "select_one", ...choicesOf(YES_NO) },
        answer: { kind, choiceId: "yes", choiceLabel: "Yes" },
      };
  }
}

/** The show-if of a question on the one before it, by the kind of the one before. */
function showIfOn(previousId: string, previousKind: BenchQuestionKind): ShowIfTerm {
  switch (previousKind) {
    case "scored":
      return { comparator: ">", question: previousId, value: SCORED_ABOVE };
    case "integer":
      return { comparator: ">", question: previousId, value: INTEGER_ABOVE };
    case "nrs":
      return { comparator: ">", question: previousId, value: NRS_ABOVE };
    case "yes_no":
      return { comparator: "=", question: previousId, value: "yes" };
    case "multiple":
    case "text":
    case "matrix":
      return { comparator: "is_answered", question: previousId };
  }
}

export function benchSurvey(questionCount: number): BenchSurvey {
  if (!Number.isInteger(questionCount) || questionCount < 2)
    throw new Error("A bench survey needs 2 questions or more");
  const questions: Record<string, Question> = {};
  const plan: PlannedQuestion[] = [];
  for (let position = 1; position <= questionCount; position++) {
    const kind = BENCH_QUESTION_TYPES[(position - 1) % BENCH_QUESTION_TYPES.length]!;
    const { question, answer } = questionAndAnswer(position, kind);
    if (position % 5 === 0) {
      const previous = plan[position - 2]!;
      question.logic = { show_if: [showIfOn(previous.id, previous.kind)], operator: "and" };
    }
    questions[question.id] = question;
    plan.push({ id: question.id, kind, label: question.label, answer });
  }
  const selectOnes = plan.filter((question) => question.kind === "scored" || question.kind === "yes_no");
  const formula = selectOnes.map((question) => `{${question.id}}`).join("+");
  if (formula.length > EXPRESSION_MAX_LENGTH) {
    throw new Error(
      `The score formula of ${questionCount} questions is ${formula.length} characters, over the limit of ${EXPRESSION_MAX_LENGTH}`,
    );
  }
  const definition: SurveyDefinition = {
    id: `bench-survey-${questionCount}`,
    type: "CLINRO",
    title: `Bench survey (${questionCount.toLocaleString("en")} questions)`,
    version: 1,
    order: plan.map((question) => question.id),
    questions,
    siblings: {},
    scores: [
      {
        id: "select_one_total",
        name: "Select-one total",
        description: "The sum of every select-one question's score.",
        formula,
      },
    ],
  };
  return { definition, plan };
}
