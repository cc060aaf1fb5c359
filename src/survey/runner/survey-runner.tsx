/**
 * Runs a survey one step at a time (spec 02 sections 2 and 4): progress bar, close button with
 * the quit confirmation, the current step's questions with one footer (Back, Next or Skip,
 * Begin for an introduction, Finish for a definition's own submission question: the
 * introduction in submission mode), and the submission step after the last question. Every change is
 * saved to the draft, so a reload or a crash resumes where the clinician was. The rules live in
 * the engine; this component renders them and moves the focus to each new question.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useMemo, useReducer, useRef, useState, type ReactNode } from "react";
import type { AnswerEntry } from "../../../core/contracts/survey-answers.ts";
import {
  isKnownQuestionType,
  type Question,
  type SurveyDefinition,
} from "../../../core/contracts/survey-definition.ts";
import { startFlow, type FlowState } from "../../../core/survey-engine/flow.ts";
import { QuestionBody } from "../questions/question-body.tsx";
import type { QuestionContext, QuestionProps } from "../questions/question-props.ts";
import { Modal } from "../../widgets/modal/modal.tsx";
import { DraftNotSavedAlert } from "./draft-not-saved-alert.tsx";
import { EraseHiddenAnswersDialog } from "./erase-hidden-answers-dialog.tsx";
import { MissingAnswerHint } from "./missing-answer-hint.tsx";
import { SlowSaveNotice, useSlowSave } from "./slow-save-notice.tsx";
import type { SurveyDraft } from "./survey-draft.ts";
import {
  finishedResult,
  reduceSession,
  shownProgress,
  stepView,
  type SessionAction,
  type SurveySession,
} from "./survey-session.ts";
import { useDraftAutosave } from "./use-draft-autosave.ts";
import { RecordContext, type RecordFacts } from "./record-context.tsx";
import { VisibilityAnnouncement } from "./visibility-announcement.tsx";
import "./survey-runner.css";

/** Next scrolls to the following question after this delay (spec 02 section 9). */
export const NEXT_SCROLL_DELAY_MS = 300;
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
  /**
   * The page is storing the finished form on the device: said when it takes long (SlowSaveNotice).
   * Not `finishing`, which also covers a password the page asks for first, and the delivery
   * shown once the form is stored.
   */
  storing?: boolean;
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
  /** Whose record this is: the participant, subject id, study and site, under the title. */
  record?: RecordFacts;
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
  const [session, dispatch] = useReducer(
    (state: SurveySession, action: SessionAction) => reduceSession(definition, state, action),
    undefined,
    (): SurveySession => ({
      flow: props.draft?.flow ?? props.initialFlow ?? startFlow(definition, new Date()),
      answers: props.draft?.answers ?? {},
      files: props.draft?.files ?? new Map(),
    }),
  );
  const [quitting, setQuitting] = useState(false);
  const stepRef = useRef<HTMLDivElement>(null);
  const reportedUnknown = useRef(new Set<string>());
  const view = stepView(definition, session, new Date());
  const { stepId, atSubmission, questions } = view;
  const { current: stepNumber, total: stepCount } = shownProgress(view, props.finishOnLastQuestion === true);

  const draft = useMemo<SurveyDraft>(
    () => ({
      definitionKey,
      flow: session.flow,
      answers: session.answers as Record<string, AnswerEntry[]>,
      files: session.files as Map<string, Blob>,
    }),
    [definitionKey, session],
  );
  const autosave = useDraftAutosave(draft, saveDraft);

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
  const focusKey = `${session.flow.shown.length}:${stepId}`;
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

  const finishesHere = (props.finishOnLastQuestion === true || view.submissionMode) && view.reachesEnd;
  /**
   * Hands the result to the page. The draft is left alone meanwhile (the page removes it once the
   * result is queued); when the page could not take it, the survey stays as it is (the step on
   * screen, a failure keeps it there) and the draft is saved again.
   */
  const finish = async () => {
    autosave.hold();
    const taken = await props.onFinish(finishedResult(definition, session, new Date()));
    if (!taken) autosave.release();
  };
  const primary = () => {
    if (props.finishing || view.missing.length > 0) return;
    if (finishesHere) void finish();
    else dispatch({ type: "advance", now: new Date() });
  };
  const consent = props.kind === "consent";
  const slowSave = useSlowSave(props.storing === true);
  const mayAdvance = view.step !== undefined && view.missing.length === 0;
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
        {props.record ? <RecordContext record={props.record} /> : null}
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
                answer={view.answers[question.id] ?? []}
                files={session.files}
                onChange={(entries, changedFiles) =>
                  dispatch({ type: "change", questionId: question.id, entries, files: changedFiles })
                }
                onSubmit={() => {
                  if (!props.finishing) dispatch({ type: "question-submits", now: new Date() });
                }}
                readOnly={props.readOnlyIds?.has(question.id) ?? false}
                inSiblingGroup={view.step?.siblingId !== undefined}
                context={context}
                labelId={labelIdOf(question.id)}
              />
            </section>
          ))
        )}
      </div>

      <VisibilityAnnouncement stepId={stepId} questions={questions} />

      <div className="survey__footer">
        {slowSave ? <SlowSaveNotice title={props.title} draft={() => draft} /> : null}
        {session.flow.shown.length > 1 ? (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              if (!props.finishing) dispatch({ type: "back" });
            }}
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
            onClick={() => void finish()}
          >
            <Trans id="survey_finish">Finish</Trans>
          </button>
        ) : (
          <button
            type="button"
            className="button button--primary survey__next"
            disabled={!mayAdvance || props.finishing}
            aria-describedby={view.missing.length > 0 ? missingHintId : undefined}
            onClick={primary}
          >
            {view.submissionMode ? (
              <Trans id="survey_finish">Finish</Trans>
            ) : finishesHere ? (
              <Trans id="survey_finish_close">Finish + Close</Trans>
            ) : view.isIntroduction ? (
              <Trans id="survey_begin">Begin</Trans>
            ) : view.action === "skip" ? (
              <Trans id="survey_skip">Skip</Trans>
            ) : (
              <Trans id="survey_next">Next</Trans>
            )}
          </button>
        )}
        {view.missing[0] && !atSubmission ? (
          <MissingAnswerHint
            id={missingHintId}
            question={view.missing[0]}
            finishes={finishesHere}
            alone={questions.length === 1}
          />
        ) : null}
      </div>

      {autosave.problem ? (
        <DraftNotSavedAlert reason={autosave.problem} title={props.title} draft={() => draft} />
      ) : null}

      {session.pendingErase ? (
        <EraseHiddenAnswersDialog
          questions={session.pendingErase.erases.flatMap((id) => definition.questions[id] ?? [])}
          onErase={() => dispatch({ type: "erase-hidden" })}
          onKeep={() => dispatch({ type: "keep-answers" })}
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
                  autosave.hold();
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
