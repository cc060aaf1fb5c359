/**
 * Runs a survey one step at a time (spec 02 sections 2 and 4): progress bar, close button with
 * the quit confirmation, the current step's questions with one footer (Back, Next or Skip,
 * Begin for an introduction, Finish for a definition's own submission question: the
 * introduction in submission mode), and the submission step after the last question. Every change is
 * saved to the draft, so a reload or a crash resumes where the clinician was. The rules live in
 * the engine; this component renders them and moves the focus to each new question.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { AnswerEntry } from "../engine/answers.ts";
import { isKnownQuestionType, type Question, type SurveyDefinition } from "../engine/definition.ts";
import {
  canAdvance,
  completeStep,
  currentStepId,
  footerAction,
  goBack,
  isAtSubmission,
  missingAnswers,
  movesOnAfterSelection,
  progressOf,
  startFlow,
  stepById,
  visibleQuestions,
  type FlowState,
} from "../engine/flow.ts";
import { QuestionBody } from "../questions/question-body.tsx";
import type { QuestionContext, QuestionProps } from "../questions/question-props.ts";
import { Modal } from "../../widgets/modal/modal.tsx";
import { DraftNotSavedAlert } from "./draft-not-saved-alert.tsx";
import { MissingAnswerHint } from "./missing-answer-hint.tsx";
import { referencedFiles, type SurveyDraft } from "./survey-draft.ts";

/** Next scrolls to the following question after this delay (spec 02 section 9). */
export const NEXT_SCROLL_DELAY_MS = 300;
/**
 * Typing saves the draft at most this often: a long survey's whole draft is not rewritten on
 * every keystroke. A completed step, a hidden tab and leaving the page save at once.
 */
export const DRAFT_TYPING_SAVE_MS = 250;

export type SurveyResult = { flow: FlowState; files: Map<string, Blob> };

export type SurveyRunnerProps = {
  definition: SurveyDefinition;
  title: string;
  /** The saved draft to resume, if any. */
  draft: SurveyDraft | undefined;
  definitionKey: string;
  saveDraft: (draft: SurveyDraft) => Promise<void>;
  context: QuestionContext;
  /** A question of an unknown type was reached: it renders nothing (spec 02 §4). */
  onParsingFailed: (question: Question) => void;
  /**
   * The clinician pressed Finish (or 'Finish + Close'). Resolves true once the page holds the
   * result (queued in the outbox); false when it could not (the page has said why): the survey
   * then stays as it was, answers on screen, and its draft is kept.
   */
  onFinish: (result: SurveyResult) => Promise<boolean>;
  /** The clinician confirmed quitting. */
  onQuit: () => void;
  /** Finish is under way: the buttons wait. */
  finishing?: boolean;
  /** What is being completed: the close button and the quit confirmation say so. */
  kind?: "instrument" | "consent";
  /** The flow to start with when there is no draft (a consent starts with earlier answers). */
  initialFlow?: FlowState;
  /** Questions shown read-only (a consent's answers from earlier sessions). */
  readOnlyIds?: ReadonlySet<string>;
  /**
   * Consents (spec 02 §2): the last question's button reads 'Finish + Close' and finishes at
   * once, without the submission step.
   */
  finishOnLastQuestion?: boolean;
  /** The page renders some questions itself (the consent signature, the consent prompt); undefined: QuestionBody. */
  renderQuestion?: (question: Question, props: QuestionProps) => ReactNode | undefined;
};

const labelIdOf = (questionId: string) => `question-label-${questionId}`;
const SUBMISSION_HEADING_ID = "survey-submission-heading";

const REDUCED_MOTION_QUERY = "(prefers-reduced-motion: reduce)";

function prefersReducedMotion() {
  return typeof window.matchMedia === "function" && window.matchMedia(REDUCED_MOTION_QUERY).matches;
}

/** One question of the step: the page's own rendering when it has one, else QuestionBody. */
function StepQuestion({
  render,
  ...questionProps
}: QuestionProps & { render: SurveyRunnerProps["renderQuestion"] }) {
  return render?.(questionProps.question, questionProps) ?? <QuestionBody {...questionProps} />;
}

export function SurveyRunner(props: SurveyRunnerProps) {
  const { definition, context, saveDraft, definitionKey, onParsingFailed } = props;
  const { t } = useLingui();
  const [flow, setFlow] = useState<FlowState>(
    () => props.draft?.flow ?? props.initialFlow ?? startFlow(definition, new Date()),
  );
  const [answers, setAnswers] = useState<Record<string, AnswerEntry[]>>(() => props.draft?.answers ?? {});
  const [files, setFiles] = useState<Map<string, Blob>>(() => props.draft?.files ?? new Map());
  const [quitting, setQuitting] = useState(false);
  /** Why the last draft save failed, until a later one succeeds: the clinician is told at once. */
  const [draftProblem, setDraftProblem] = useState<string | null>(null);
  const stepRef = useRef<HTMLDivElement>(null);
  const reportedUnknown = useRef(new Set<string>());

  const stepId = currentStepId(flow);
  const atSubmission = isAtSubmission(flow);
  const step = atSubmission ? undefined : stepById(definition, stepId);
  const questions = useMemo(
    () => (step ? visibleQuestions(definition, step, flow.records) : []),
    [definition, step, flow.records],
  );
  const { current: stepNumber, total: stepCount } = progressOf(definition, flow);

  // Every change goes to the draft store: a completed step at once, typing within a step at
  // most every DRAFT_TYPING_SAVE_MS, and whatever is pending when the tab is hidden or the
  // page is left.
  const pendingDraft = useRef<SurveyDraft | null>(null);
  const savedFlow = useRef<FlowState | null>(null);
  const saveTimer = useRef<number | undefined>(undefined);
  /** Set once the survey is finished or quit: its draft is the page's to remove, not to rewrite. */
  const closed = useRef(false);
  const flushDraft = useCallback(() => {
    window.clearTimeout(saveTimer.current);
    saveTimer.current = undefined;
    const draft = pendingDraft.current;
    if (!draft || closed.current) return;
    pendingDraft.current = null;
    savedFlow.current = draft.flow;
    saveDraft(draft).then(
      () => setDraftProblem(null),
      (error: unknown) => {
        console.error("The draft could not be saved on this device", error);
        setDraftProblem(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      },
    );
  }, [saveDraft]);
  useEffect(() => {
    pendingDraft.current = { definitionKey, flow, answers, files };
    if (savedFlow.current !== flow) flushDraft();
    else saveTimer.current ??= window.setTimeout(flushDraft, DRAFT_TYPING_SAVE_MS);
  }, [flushDraft, definitionKey, flow, answers, files]);
  useEffect(() => {
    const flushWhenHidden = () => {
      if (document.visibilityState === "hidden") flushDraft();
    };
    document.addEventListener("visibilitychange", flushWhenHidden);
    window.addEventListener("pagehide", flushDraft);
    return () => {
      document.removeEventListener("visibilitychange", flushWhenHidden);
      window.removeEventListener("pagehide", flushDraft);
      flushDraft();
    };
  }, [flushDraft]);

  // Unknown question types: reported once each, rendered as nothing.
  useEffect(() => {
    for (const question of questions) {
      if (isKnownQuestionType(question.type) || reportedUnknown.current.has(question.id)) continue;
      reportedUnknown.current.add(question.id);
      onParsingFailed(question);
    }
  }, [questions, onParsingFailed]);

  // A new step: focus its first label at once (screen readers read the question), then bring
  // it into view after the spec's delay.
  const focusKey = `${flow.shown.length}:${stepId}`;
  const firstRender = useRef(true);
  useEffect(() => {
    const target = atSubmission
      ? document.getElementById(SUBMISSION_HEADING_ID)
      : (stepRef.current?.querySelector<HTMLElement>("[data-question-label]") ?? stepRef.current);
    target?.focus({ preventScroll: true });
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const timer = window.setTimeout(() => {
      // The page's top: the survey's header (progress, close) and the new question, clear of the
      // sticky navigation.
      window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? "auto" : "smooth" });
    }, NEXT_SCROLL_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [focusKey, atSubmission]);

  // The latest answers, read by advance(): a select in a sibling group changes its answer and
  // submits in the same event, before React renders the change.
  const answersRef = useRef(answers);
  const filesRef = useRef(files);

  const answersOfStepFrom = (current: Record<string, AnswerEntry[]>) => {
    const result: Record<string, readonly AnswerEntry[]> = {};
    for (const question of questions) {
      result[question.id] =
        current[question.id] ?? flow.records.find((record) => record.id === question.id)?.answer ?? [];
    }
    return result;
  };
  const answersOfStep = answersOfStepFrom(answers);

  const advance = () => {
    const stepAnswers = answersOfStepFrom(answersRef.current);
    if (!step || props.finishing || !canAdvance(definition, step, flow.records, stepAnswers)) return;
    const next = completeStep(definition, flow, stepAnswers, new Date());
    setFlow(next);
    if (next.records.length < flow.records.length) {
      // A changed required answer dropped the later questions: their edits go with them.
      const kept = new Set(next.records.map((record) => record.id));
      for (const question of questions) kept.add(question.id);
      const remaining = Object.fromEntries(Object.entries(answersRef.current).filter(([id]) => kept.has(id)));
      answersRef.current = remaining;
      setAnswers(remaining);
    }
  };

  /**
   * A question asks to move on by itself (a selection in a sibling group, Enter in a text): a
   * group moves on only once none of its siblings is left unanswered; Next moves it on as ever.
   */
  const questionSubmits = () => {
    if (
      !step ||
      !movesOnAfterSelection(definition, step, flow.records, answersOfStepFrom(answersRef.current))
    ) {
      return;
    }
    advance();
  };

  const back = () => {
    if (props.finishing) return;
    setFlow(goBack(flow));
  };

  const change = (questionId: string, entries: AnswerEntry[], changedFiles?: ReadonlyMap<string, Blob>) => {
    const next = { ...answersRef.current, [questionId]: entries };
    answersRef.current = next;
    setAnswers(next);
    if (changedFiles) {
      const nextFiles = referencedFiles(next, new Map([...filesRef.current, ...changedFiles]));
      filesRef.current = nextFiles;
      setFiles(nextFiles);
    }
  };

  const action = step ? footerAction(definition, step, flow.records, answersOfStep) : "next";
  // Would Next reach the end? A consent's last question then reads 'Finish + Close' and a
  // definition's own submission question (the introduction in submission mode) 'Finish': both
  // finish at once, without the runner's own submission step.
  const reachesEnd =
    step !== undefined && isAtSubmission(completeStep(definition, flow, answersOfStep, new Date()));
  const isSubmissionQuestion = questions.length === 1 && questions[0]?.type === "submission";
  const submissionMode = isSubmissionQuestion && reachesEnd;
  const finishesHere = (props.finishOnLastQuestion === true || submissionMode) && reachesEnd;
  /**
   * Hands the result to the page. The draft is left alone meanwhile (the page removes it once the
   * result is queued); when the page could not take it, the survey stays as it is and the draft
   * is saved again.
   */
  const finish = async (result: SurveyResult) => {
    flushDraft();
    closed.current = true;
    const taken = await props.onFinish(result);
    if (taken) return;
    closed.current = false;
    savedFlow.current = null;
    pendingDraft.current = { definitionKey, flow, answers: answersRef.current, files: filesRef.current };
    flushDraft();
  };
  const primary = () => {
    if (!finishesHere) {
      advance();
      return;
    }
    const stepAnswers = answersOfStepFrom(answersRef.current);
    if (!step || props.finishing || !canAdvance(definition, step, flow.records, stepAnswers)) return;
    // The step stays on screen until the page holds the result: a failure keeps it there.
    const next = completeStep(definition, flow, stepAnswers, new Date());
    void finish({ flow: next, files: referencedFiles(answersRef.current, filesRef.current) });
  };
  const consent = props.kind === "consent";
  const isIntroduction = questions.length === 1 && questions[0]?.type === "introduction";
  const missing = step ? missingAnswers(definition, step, flow.records, answersOfStep) : [];
  const mayAdvance = step !== undefined && missing.length === 0;
  const missingHintId = "survey-missing-answer";

  return (
    <div className="survey">
      <header className="survey__header">
        <h1 className="survey__title">{props.title}</h1>
        <button
          type="button"
          className="survey__close"
          aria-label={
            consent
              ? t({ id: "survey_close_consent", message: "Close the consent" })
              : t({ id: "survey_close", message: "Close the instrument" })
          }
          onClick={() => setQuitting(true)}
        >
          <span aria-hidden="true">×</span>
        </button>
        <div className="survey__progress">
          <progress
            max={stepCount}
            value={stepNumber}
            aria-label={t({ id: "survey_progress_label", message: "Progress" })}
          />
          <span className="survey__progress-text">
            <Trans id="survey_progress">
              {stepNumber} of {stepCount}
            </Trans>
          </span>
        </div>
      </header>

      <div ref={stepRef} className="survey__step" key={stepId} tabIndex={-1}>
        {atSubmission ? (
          <section className="survey__submission" aria-labelledby={SUBMISSION_HEADING_ID}>
            <h2 id={SUBMISSION_HEADING_ID} className="question__label" tabIndex={-1}>
              <Trans id="survey_submission_heading">Ready to submit</Trans>
            </h2>
            <p>
              <Trans id="survey_submission_body">
                Choose Finish to submit your answers. They are kept on this device until the server has them.
              </Trans>
            </p>
          </section>
        ) : (
          questions.map((question) => (
            <section
              key={question.id}
              className="survey__question"
              aria-labelledby={isKnownQuestionType(question.type) ? labelIdOf(question.id) : undefined}
            >
              <StepQuestion
                render={props.renderQuestion}
                question={question}
                answer={answersOfStep[question.id] ?? []}
                files={files}
                onChange={(entries, changedFiles) => change(question.id, entries, changedFiles)}
                onSubmit={questionSubmits}
                readOnly={props.readOnlyIds?.has(question.id) ?? false}
                inSiblingGroup={step?.siblingId !== undefined}
                context={context}
                labelId={labelIdOf(question.id)}
              />
            </section>
          ))
        )}
      </div>

      <div className="survey__footer">
        {flow.shown.length > 1 ? (
          <button
            type="button"
            className="button button--secondary"
            onClick={back}
            disabled={props.finishing}
          >
            <Trans id="survey_back">Back</Trans>
          </button>
        ) : null}
        {atSubmission ? (
          <button
            type="button"
            className="button button--primary"
            disabled={props.finishing}
            onClick={() => void finish({ flow, files: referencedFiles(answers, files) })}
          >
            <Trans id="survey_finish">Finish</Trans>
          </button>
        ) : (
          <button
            type="button"
            className="button button--primary survey__next"
            disabled={!mayAdvance || props.finishing}
            aria-describedby={missing.length > 0 ? missingHintId : undefined}
            onClick={primary}
          >
            {submissionMode ? (
              <Trans id="survey_finish">Finish</Trans>
            ) : finishesHere ? (
              <Trans id="survey_finish_close">Finish + Close</Trans>
            ) : isIntroduction ? (
              <Trans id="survey_begin">Begin</Trans>
            ) : action === "skip" ? (
              <Trans id="survey_skip">Skip</Trans>
            ) : (
              <Trans id="survey_next">Next</Trans>
            )}
          </button>
        )}
        {missing.length > 0 && !atSubmission ? (
          <MissingAnswerHint id={missingHintId} question={missing[0]!} finishes={finishesHere} />
        ) : null}
      </div>

      {draftProblem ? (
        <DraftNotSavedAlert
          reason={draftProblem}
          title={props.title}
          draft={() => ({ definitionKey, flow, answers: answersRef.current, files: filesRef.current })}
        />
      ) : null}

      {quitting ? (
        <Modal
          title={
            consent
              ? t({ id: "survey_quit_consent_title", message: "Quit this consent?" })
              : t({ id: "survey_quit_title", message: "Quit this instrument?" })
          }
          onClose={() => setQuitting(false)}
          actions={
            <>
              <button type="button" className="button button--secondary" onClick={() => setQuitting(false)}>
                <Trans id="modal_cancel">Cancel</Trans>
              </button>
              <button
                type="button"
                className="button button--danger"
                onClick={() => {
                  closed.current = true;
                  props.onQuit();
                }}
              >
                <Trans id="survey_quit_confirm">Quit</Trans>
              </button>
            </>
          }
        >
          {consent ? (
            <p>
              <Trans id="survey_quit_consent_body">
                The answers given in this session are discarded and you return to the consent.
              </Trans>
            </p>
          ) : (
            <p>
              <Trans id="survey_quit_body">
                The answers you gave in this instrument are discarded and you return to the participant.
              </Trans>
            </p>
          )}
        </Modal>
      ) : null}
    </div>
  );
}
