/**
 * A survey being answered, as one value: the flow (steps shown, confirmed records), the answers
 * being edited (the current step's included, before Next confirms them) and the photos and
 * signatures they name. Changed only through `reduceSession`, a pure function of the session and
 * one action (change, advance, question-submits, back), so that a selection and the move it
 * triggers in one event see the same answers, and every rule is tested without React like the
 * flow itself (flow.ts). What the step shows is derived (`stepView`), never stored.
 */
import type { AnswerEntry } from "../../../core/contracts/survey-answers.ts";
import type { Question, SurveyDefinition } from "../../../core/contracts/survey-definition.ts";
import {
  completeStep,
  currentStepId,
  footerAction,
  goBack,
  isAtSubmission,
  missingAnswers,
  movesOnAfterSelection,
  progressOf,
  stepById,
  visibleQuestions,
  type FlowState,
  type Step,
} from "../../../core/survey-engine/flow.ts";
import { hasValue } from "../../../core/survey-engine/answer-state.ts";
import { referencedFiles } from "./survey-draft.ts";

export type SurveySession = {
  flow: FlowState;
  answers: Readonly<Record<string, AnswerEntry[]>>;
  files: ReadonlyMap<string, Blob>;
  /** A change that would hide questions holding answers, waiting for the clinician's word. */
  pendingErase?: PendingErase | undefined;
};

/**
 * A change held back because it hides questions of the screen that hold an answer: as REDCap
 * does, the clinician confirms erasing those answers (erase-hidden) or keeps them and the change
 * is not made (keep-answers). Never saved in the draft: the draft holds the answers as they were.
 */
export type PendingErase = {
  questionId: string;
  entries: AnswerEntry[];
  files?: ReadonlyMap<string, Blob> | undefined;
  /** The questions the change hides that hold an answer, in the step's order. */
  erases: string[];
};

export type SessionAction =
  | { type: "change"; questionId: string; entries: AnswerEntry[]; files?: ReadonlyMap<string, Blob> }
  /** Next, Skip or Begin. */
  | { type: "advance"; now: Date }
  /** A question asks to move on by itself (a selection in a sibling group, Enter in a text). */
  | { type: "question-submits"; now: Date }
  | { type: "back" }
  /** The pending change is made and the answers of the questions it hides are erased. */
  | { type: "erase-hidden" }
  /** The pending change is dropped: the answers stay as they were. */
  | { type: "keep-answers" };

/** The answers the current step's questions hold: an edit, else the confirmed record's. */
export function stepAnswers(
  definition: SurveyDefinition,
  session: SurveySession,
): Record<string, readonly AnswerEntry[]> {
  const step = currentStep(definition, session.flow);
  const answers: Record<string, readonly AnswerEntry[]> = {};
  if (!step) return answers;
  for (const question of visibleQuestions(definition, step, session.flow.records, session.answers)) {
    answers[question.id] =
      session.answers[question.id] ??
      session.flow.records.find((record) => record.id === question.id)?.answer ??
      [];
  }
  return answers;
}

function currentStep(definition: SurveyDefinition, flow: FlowState): Step | undefined {
  return isAtSubmission(flow) ? undefined : stepById(definition, currentStepId(flow));
}

/**
 * Completes the current step when it may move on. When a changed required answer dropped the
 * later questions' records, their edits go with them.
 */
function advance(definition: SurveyDefinition, session: SurveySession, now: Date): SurveySession {
  const step = currentStep(definition, session.flow);
  if (!step) return session;
  const answers = stepAnswers(definition, session);
  if (missingAnswers(definition, step, session.flow.records, answers).length > 0) return session;
  const flow = completeStep(definition, session.flow, answers, now);
  if (flow.records.length >= session.flow.records.length) return { ...session, flow };
  const kept = new Set([...flow.records.map((record) => record.id), ...Object.keys(answers)]);
  const remaining = Object.fromEntries(Object.entries(session.answers).filter(([id]) => kept.has(id)));
  return { flow, answers: remaining, files: referencedFiles(remaining, session.files) };
}

/** Whether some entry holds a value: a half-filled matrix or a typed text counts. */
const holdsSomething = (entries: readonly AnswerEntry[]) => entries.some((entry) => hasValue(entry.value));

/** The questions of the screen a change would hide while they hold an answer. */
function answersHiddenBy(
  definition: SurveyDefinition,
  session: SurveySession,
  change: { questionId: string; entries: AnswerEntry[] },
): string[] {
  const step = currentStep(definition, session.flow);
  if (!step?.questionIds.includes(change.questionId)) return [];
  const before = stepAnswers(definition, session);
  const after = visibleQuestions(definition, step, session.flow.records, {
    ...session.answers,
    [change.questionId]: change.entries,
  });
  return Object.keys(before).filter(
    (questionId) =>
      holdsSomething(before[questionId] ?? []) && !after.some((question) => question.id === questionId),
  );
}

function applyChange(
  session: SurveySession,
  change: { questionId: string; entries: AnswerEntry[]; files?: ReadonlyMap<string, Blob> | undefined },
  erased: readonly string[] = [],
): SurveySession {
  const answers: Record<string, AnswerEntry[]> = { ...session.answers, [change.questionId]: change.entries };
  // An empty edit, not a missing one: the confirmed record of an erased question must not come back.
  for (const questionId of erased) answers[questionId] = [];
  const files =
    change.files || erased.length > 0
      ? referencedFiles(answers, new Map([...session.files, ...(change.files ?? [])]))
      : session.files;
  return { flow: session.flow, answers, files };
}

export function reduceSession(
  definition: SurveyDefinition,
  session: SurveySession,
  action: SessionAction,
): SurveySession {
  const pending = session.pendingErase;
  if (pending) {
    // The confirmation is open: nothing else moves until the clinician answers it.
    if (action.type === "erase-hidden") return applyChange(session, pending, pending.erases);
    if (action.type === "keep-answers") return { ...session, pendingErase: undefined };
    return session;
  }
  switch (action.type) {
    case "change": {
      const erases = answersHiddenBy(definition, session, action);
      if (erases.length > 0) {
        const { questionId, entries, files } = action;
        return { ...session, pendingErase: { questionId, entries, ...(files ? { files } : {}), erases } };
      }
      return applyChange(session, action);
    }
    case "advance":
      return advance(definition, session, action.now);
    case "question-submits": {
      const step = currentStep(definition, session.flow);
      const answers = stepAnswers(definition, session);
      if (!step || !movesOnAfterSelection(definition, step, session.flow.records, answers)) return session;
      return advance(definition, session, action.now);
    }
    case "back":
      return { ...session, flow: goBack(session.flow) };
    case "erase-hidden":
    case "keep-answers":
      return session;
  }
}

/** What the finished session hands to the page: the flow with the step completed, and its files. */
export function finishedResult(definition: SurveyDefinition, session: SurveySession, now: Date) {
  const completed = isAtSubmission(session.flow) ? session : advance(definition, session, now);
  return { flow: completed.flow, files: referencedFiles(session.answers, session.files) };
}

export type StepView = {
  stepId: string;
  atSubmission: boolean;
  step: Step | undefined;
  questions: Question[];
  answers: Record<string, readonly AnswerEntry[]>;
  /** The required questions still unanswered: what holds the step. */
  missing: Question[];
  /** The footer's forward button: Next, or Skip (spec 02 §4). */
  action: "next" | "skip";
  /** Whether Next would reach the end (the submission step). */
  reachesEnd: boolean;
  /** A definition's own submission question, at the end: its button reads Finish. */
  submissionMode: boolean;
  isIntroduction: boolean;
  progress: { current: number; total: number };
};

/** Everything the runner renders for the current step, derived from the session. */
export function stepView(definition: SurveyDefinition, session: SurveySession, now: Date): StepView {
  const { flow } = session;
  const step = currentStep(definition, flow);
  const questions = step ? visibleQuestions(definition, step, flow.records, session.answers) : [];
  const answers = stepAnswers(definition, session);
  const reachesEnd = step !== undefined && isAtSubmission(completeStep(definition, flow, answers, now));
  const only = questions.length === 1 ? questions[0] : undefined;
  return {
    stepId: currentStepId(flow),
    atSubmission: isAtSubmission(flow),
    step,
    questions,
    answers,
    missing: step ? missingAnswers(definition, step, flow.records, answers) : [],
    action: step ? footerAction(definition, step, flow.records, answers) : "next",
    reachesEnd,
    submissionMode: only?.type === "submission" && reachesEnd,
    isIntroduction: only?.type === "introduction",
    progress: progressOf(definition, flow),
  };
}

export type Progress = { current: number; total: number };

/**
 * The progress the runner shows (a consent's progress reaches its end): the step's
 * position among the steps plus the submission step. A survey that finishes on its last question
 * (a consent: 'Finish + Close') never shows a submission step, so it counts the steps alone;
 * and the step whose button finishes, a consent's last question or a definition's own submission
 * question, reads n of n, whatever show-if left out before it. The spec's "1 of (question count +
 * 1)" for consents left a coordinator at "9 of 10" when signing the last question.
 */
export function shownProgress(view: StepView, finishOnLastQuestion: boolean): Progress {
  const total = finishOnLastQuestion ? Math.max(1, view.progress.total - 1) : view.progress.total;
  const finishesHere = (finishOnLastQuestion || view.submissionMode) && view.reachesEnd;
  if (finishesHere || view.atSubmission) return { current: total, total };
  return { current: Math.min(view.progress.current, total), total };
}
