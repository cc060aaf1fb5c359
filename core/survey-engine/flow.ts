/**
 * The survey flow of spec 02 section 4, as plain data: which step is shown, what was answered,
 * where Next and Back lead. A step is one question, or a sibling group (questions shown together
 * with one footer). The state is immutable: every function returns a new one, so the page can
 * save it to the draft store after each answer and resume it after a reload.
 *
 * What this module does not own: rendering, timing (the 300 ms scroll), events and submission.
 */
import type { AnswerEntry, AnswerRecord } from "../contracts/survey-answers.ts";
import { holdsAnswer, isAnswered, makeRecord, mustBeAnswered, type AnswerLookup } from "./answer-state.ts";
import { SUBMIT_ID, type Question, type SurveyDefinition } from "../contracts/survey-definition.ts";
import { visibilityOf, type Visibility } from "./show-if.ts";

export type Step = {
  /** The question id, or the sibling id of a group. */
  id: string;
  questionIds: string[];
  siblingId?: string | undefined;
};

export type FlowState = {
  /** The step ids shown so far, oldest first; the last one is current (SUBMIT_ID at the end). */
  shown: string[];
  /** One record per completed question, replaced by id, appended otherwise (spec 02 §4). */
  records: AnswerRecord[];
  /** When the clinician started: stamped on the survey copy. */
  startedAt: string;
};

type StepIndex = { steps: Step[]; positionOf: Map<string, number> };
const stepIndexes = new WeakMap<SurveyDefinition, StepIndex>();

/**
 * The steps of a definition in order: a question of a sibling group stands for its whole group
 * at the position of the group's first question.
 */
export function stepsOf(definition: SurveyDefinition): readonly Step[] {
  return indexOf(definition).steps;
}

function indexOf(definition: SurveyDefinition): StepIndex {
  const cached = stepIndexes.get(definition);
  if (cached) return cached;
  const steps: Step[] = [];
  const positionOf = new Map<string, number>();
  for (const questionId of definition.order) {
    const siblingId = definition.questions[questionId]?.sibling_id;
    const group = siblingId === undefined ? undefined : definition.siblings[siblingId];
    if (siblingId !== undefined && group) {
      if (positionOf.has(siblingId)) continue;
      positionOf.set(siblingId, steps.length);
      steps.push({ id: siblingId, questionIds: [...group], siblingId });
    } else {
      positionOf.set(questionId, steps.length);
      steps.push({ id: questionId, questionIds: [questionId] });
    }
  }
  const index = { steps, positionOf };
  stepIndexes.set(definition, index);
  return index;
}

export function stepById(definition: SurveyDefinition, stepId: string): Step | undefined {
  const index = indexOf(definition);
  const position = index.positionOf.get(stepId);
  return position === undefined ? undefined : index.steps[position];
}

const lookups = new WeakMap<readonly AnswerRecord[], AnswerLookup>();

/** Finds a question's record; cached per records list, which the flow never mutates. */
export function lookupOf(records: readonly AnswerRecord[]): AnswerLookup {
  const cached = lookups.get(records);
  if (cached) return cached;
  const byId = new Map(records.map((record) => [record.id, record]));
  const lookup: AnswerLookup = (questionId) => byId.get(questionId);
  lookups.set(records, lookup);
  return lookup;
}

type ScreenAnswers = Readonly<Record<string, readonly AnswerEntry[]>>;

const recordVisibilities = new WeakMap<
  readonly AnswerRecord[],
  { definition: SurveyDefinition; visibility: Visibility }
>();

/** What the confirmed records show; cached per records list, which the flow never mutates. */
function visibilityOfRecords(definition: SurveyDefinition, records: readonly AnswerRecord[]): Visibility {
  const cached = recordVisibilities.get(records);
  if (cached?.definition === definition) return cached.visibility;
  const visibility = visibilityOf(definition, lookupOf(records));
  recordVisibilities.set(records, { definition, visibility });
  return visibility;
}

/** A record only stands in for an answer being edited: its time is never kept. */
const EDITING = new Date(0);

/**
 * The records with the answers on a step's screen in place of its questions' records: what the
 * screen shows while the clinician answers, before Next confirms anything.
 */
function screenLookup(
  definition: SurveyDefinition,
  step: Step,
  records: readonly AnswerRecord[],
  answers: ScreenAnswers,
): AnswerLookup {
  const confirmed = lookupOf(records);
  const editing = new Map<string, AnswerRecord>();
  for (const questionId of step.questionIds) {
    const question = definition.questions[questionId];
    const entries = answers[questionId];
    if (question && entries) editing.set(questionId, makeRecord(question, entries, EDITING));
  }
  return (questionId) => editing.get(questionId) ?? confirmed(questionId);
}

/**
 * The questions of a step whose show-if logic holds. With the answers on its screen, visibility
 * follows them as they change (spec 02 §4): a sibling's answer shows or hides the siblings
 * after it at once, not only when the step is next reached. Without them, the confirmed records
 * decide.
 */
export function visibleQuestions(
  definition: SurveyDefinition,
  step: Step,
  records: readonly AnswerRecord[],
  answers?: ScreenAnswers,
): Question[] {
  const { shown } =
    answers === undefined
      ? visibilityOfRecords(definition, records)
      : visibilityOf(definition, screenLookup(definition, step, records, answers));
  const visible: Question[] = [];
  for (const questionId of step.questionIds) {
    const question = definition.questions[questionId];
    if (question && shown.has(questionId)) visible.push(question);
  }
  return visible;
}

/**
 * The step that follows `afterStepId` (or the first one when null): the next step with a
 * question whose show-if holds, or SUBMIT_ID when none is left.
 */
export function nextStepId(
  definition: SurveyDefinition,
  records: readonly AnswerRecord[],
  afterStepId: string | null,
): string {
  const { steps, positionOf } = indexOf(definition);
  const { shown } = visibilityOfRecords(definition, records);
  const start = afterStepId === null ? 0 : (positionOf.get(afterStepId) ?? steps.length) + 1;
  for (let position = start; position < steps.length; position++) {
    const step = steps[position]!;
    if (step.questionIds.some((questionId) => shown.has(questionId))) return step.id;
  }
  return SUBMIT_ID;
}

export function startFlow(definition: SurveyDefinition, now: Date): FlowState {
  return { shown: [nextStepId(definition, [], null)], records: [], startedAt: now.toISOString() };
}

export function currentStepId(state: FlowState): string {
  return state.shown.at(-1) ?? SUBMIT_ID;
}

export function isAtSubmission(state: FlowState) {
  return currentStepId(state) === SUBMIT_ID;
}

function sameAnswer(a: readonly AnswerEntry[], b: readonly AnswerEntry[]) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The step's visible required questions still without an answer (0 counts as one): what holds it. */
export function missingAnswers(
  definition: SurveyDefinition,
  step: Step,
  records: readonly AnswerRecord[],
  answers: Readonly<Record<string, readonly AnswerEntry[]>>,
): Question[] {
  return visibleQuestions(definition, step, records, answers).filter(
    (question) => mustBeAnswered(question) && !isAnswered(question, answers[question.id] ?? []),
  );
}

/** Whether the current step may move on: every visible required question answered. */
export function canAdvance(
  definition: SurveyDefinition,
  step: Step,
  records: readonly AnswerRecord[],
  answers: Readonly<Record<string, readonly AnswerEntry[]>>,
) {
  return missingAnswers(definition, step, records, answers).length === 0;
}

/**
 * Whether a sibling group moves on by itself after a selection (spec 02 §4, "Siblings
 * auto-submit on selection"): only once no visible sibling that holds an answer is left
 * unanswered. A selection in the first of several siblings records that sibling and waits, so the
 * others are never submitted empty; Next (or Skip) moves on as ever. A single question's step
 * moves on whenever it may.
 */
export function movesOnAfterSelection(
  definition: SurveyDefinition,
  step: Step,
  records: readonly AnswerRecord[],
  answers: Readonly<Record<string, readonly AnswerEntry[]>>,
) {
  if (step.siblingId === undefined) return canAdvance(definition, step, records, answers);
  return visibleQuestions(definition, step, records, answers).every(
    (question) => !holdsAnswer(question) || isAnswered(question, answers[question.id] ?? []),
  );
}

/**
 * The footer button (spec 02 §4): Next when the question is required or has a value, else Skip.
 * A sibling group shows Skip only when some sibling is unanswered and none is required.
 */
export function footerAction(
  definition: SurveyDefinition,
  step: Step,
  records: readonly AnswerRecord[],
  answers: Readonly<Record<string, readonly AnswerEntry[]>>,
): "next" | "skip" {
  const questions = visibleQuestions(definition, step, records, answers);
  if (questions.some(mustBeAnswered)) return "next";
  const unanswered = questions.some(
    (question) => holdsAnswer(question) && !isAnswered(question, answers[question.id] ?? []),
  );
  return unanswered ? "skip" : "next";
}

/**
 * Completes the current step with the clinician's answers and moves on. Each question the
 * answers show gets a record that replaces the one with the same id or is appended; one they hide
 * loses its record. When the answer of a required question changed (or went with its question),
 * the records of every later question are dropped: the later path may differ.
 */
export function completeStep(
  definition: SurveyDefinition,
  state: FlowState,
  answers: Readonly<Record<string, readonly AnswerEntry[]>>,
  now: Date,
): FlowState {
  const stepId = currentStepId(state);
  const step = stepById(definition, stepId);
  if (!step) return state;
  const questions = visibleQuestions(definition, step, state.records, answers);
  const lookup = lookupOf(state.records);
  // A question of the step its answers now hide keeps no record: the runner asked before erasing
  // the answer it held (survey-session.ts), and it is never submitted.
  const hidden = new Set(step.questionIds.filter((id) => !questions.some((question) => question.id === id)));
  let records = state.records.filter((record) => !hidden.has(record.id));
  let requiredAnswerChanged = state.records.some((record) => hidden.has(record.id) && record.required);
  for (const question of questions) {
    const record = makeRecord(question, [...(answers[question.id] ?? [])], now);
    const previous = lookup(question.id);
    if (previous && question.attributes.required && !sameAnswer(previous.answer, record.answer)) {
      requiredAnswerChanged = true;
    }
    const at = records.findIndex((existing) => existing.id === question.id);
    if (at >= 0) records[at] = record;
    else records.push(record);
  }
  if (requiredAnswerChanged) records = recordsUpTo(definition, records, stepId);
  const shown = state.shown.slice(0, state.shown.lastIndexOf(stepId) + 1);
  return { ...state, records, shown: [...shown, nextStepId(definition, records, stepId)] };
}

/** The records of the questions at or before a step, in the definition's order of steps. */
function recordsUpTo(definition: SurveyDefinition, records: AnswerRecord[], stepId: string) {
  const { positionOf } = indexOf(definition);
  const limit = positionOf.get(stepId) ?? Number.POSITIVE_INFINITY;
  return records.filter((record) => {
    const question = definition.questions[record.id];
    const position = positionOf.get(question?.sibling_id ?? record.id);
    return position !== undefined && position <= limit;
  });
}

/** Back: the previous step becomes current; the shown list is truncated at the current step. */
export function goBack(state: FlowState): FlowState {
  if (state.shown.length <= 1) return state;
  return { ...state, shown: state.shown.slice(0, -1) };
}

/**
 * The records to submit: those of the questions on the path actually taken and still shown by
 * their logic, in the order they were shown. Answers left behind by a changed branch are not
 * sent, nor do they count for the logic of the questions after them (show-if.ts visibilityOf),
 * as on the server.
 */
export function recordsToSubmit(definition: SurveyDefinition, state: FlowState): AnswerRecord[] {
  const { shown, counted } = visibilityOfRecords(definition, state.records);
  const submitted: AnswerRecord[] = [];
  for (const stepId of state.shown) {
    const step = stepById(definition, stepId);
    if (!step) continue;
    for (const questionId of step.questionIds) {
      const record = shown.has(questionId) ? counted(questionId) : undefined;
      if (record) submitted.push(record);
    }
  }
  return submitted;
}

/** Progress (spec 02 §2): step n of (number of steps + 1), the last being the submission step. */
export function progressOf(definition: SurveyDefinition, state: FlowState) {
  const { steps, positionOf } = indexOf(definition);
  const stepId = currentStepId(state);
  const current = stepId === SUBMIT_ID ? steps.length + 1 : (positionOf.get(stepId) ?? 0) + 1;
  return { current, total: steps.length + 1 };
}
