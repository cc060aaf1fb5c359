/**
 * One question as the instrument page shows it: its label (a focusable heading the page moves
 * focus to and labels the controls with), its image and instructions, and the control of its
 * type. A submission question shows like an introduction (its label and comments; the runner's
 * footer reads Finish). The page owns the footer, the introduction's begin/finish, the
 * submission step and the consent signature. An unknown type renders nothing (the page reports parsingFailed).
 *
 * The pdf, image capture and scribble controls carry large libraries (pdf.js, the cropper, the
 * signature pad), and the date and datetime controls carry React Aria's date field and its
 * calendar arithmetic: they load on demand so the instrument route stays small.
 */
import { Trans } from "@lingui/react/macro";
import { Component, lazy, Suspense, useId, useState, type ComponentType, type ReactNode } from "react";
import { ChunkLoadFailure } from "../../widgets/loading/chunk-load-failure.tsx";
import { withChunkTimeout } from "../../widgets/loading/load-chunk.ts";
import { isKnownQuestionType, type QuestionType } from "../../../core/contracts/survey-definition.ts";
import { classNames } from "./class-names.ts";
import { DecimalQuestion } from "./decimal-question.tsx";
import { IntegerQuestion } from "./integer-question.tsx";
import { LikertQuestion } from "./likert-question.tsx";
import { MatrixQuestion } from "./matrix-question.tsx";
import { MultipleFieldQuestion } from "./multiple-field-question.tsx";
import { NumericRatingScaleQuestion } from "./numeric-rating-scale-question.tsx";
import type { QuestionProps } from "./question-props.ts";
import { SelectMultipleQuestion } from "./select-multiple-question.tsx";
import { SelectOneQuestion } from "./select-one-question.tsx";
import { TextQuestion } from "./text-question.tsx";
import { TimeQuestion } from "./time-question.tsx";
import "./questions.css";

/**
 * A control loaded on demand, within the 120-second chunk time-out (spec 01 section 9). A
 * failed load is remembered by React.lazy, so a retry makes a new lazy component.
 */
function lazyControl(load: () => Promise<ComponentType<QuestionProps>>) {
  const loadInTime = withChunkTimeout(load);
  const make = () => lazy(() => loadInTime().then((Control) => ({ default: Control })));
  const control = { current: make(), retry: () => (control.current = make()) };
  return control;
}

const LAZY_CONTROLS = {
  pdf: lazyControl(() => import("./pdf-question.tsx").then((module) => module.PdfQuestion)),
  image_capture: lazyControl(() =>
    import("./image-capture-question.tsx").then((module) => module.ImageCaptureQuestion),
  ),
  scribble: lazyControl(() => import("./scribble-question.tsx").then((module) => module.ScribbleQuestion)),
  date: lazyControl(() => import("./date-question.tsx").then((module) => module.DateQuestion)),
  datetime: lazyControl(() => import("./datetime-question.tsx").then((module) => module.DatetimeQuestion)),
} satisfies Partial<Record<QuestionType, ReturnType<typeof lazyControl>>>;
type LazyType = keyof typeof LAZY_CONTROLS;
const isLazyType = (type: QuestionType): type is LazyType => type in LAZY_CONTROLS;

/** What each type shows under its label; null: the label is all (or the page shows it). */
const CONTROLS: Record<QuestionType, ComponentType<QuestionProps> | null> = {
  introduction: null,
  prompt: null,
  select_one: SelectOneQuestion,
  select_multiple: SelectMultipleQuestion,
  pdf: null,
  text: TextQuestion,
  decimal: DecimalQuestion,
  integer: IntegerQuestion,
  likert: LikertQuestion,
  time: TimeQuestion,
  date: null,
  datetime: null,
  numeric_rating_scale: NumericRatingScaleQuestion,
  multiple_field: MultipleFieldQuestion,
  matrix: MatrixQuestion,
  scribble: null,
  image_capture: null,
  consent_signature: null,
  submission: null,
};

/** Types the page renders itself: QuestionBody renders nothing for them. */
const PAGE_TYPES = new Set<QuestionType>(["consent_signature"]);

/**
 * A lazily loaded control that failed to load (offline without it cached, or past the time-out):
 * say so with a retry, do not crash the page.
 */
class LoadFailureBoundary extends Component<
  { onRetry: () => void; children: ReactNode },
  { error: unknown; failed: boolean }
> {
  override state = { error: null as unknown, failed: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error("A question control failed to load", error);
  }

  override render() {
    if (this.state.failed) {
      return (
        <ChunkLoadFailure
          error={this.state.error}
          headingLevel={null}
          onRetry={() => {
            this.props.onRetry();
            this.setState({ error: null, failed: false });
          }}
        />
      );
    }
    return this.props.children;
  }
}

export type QuestionBodyProps = QuestionProps & {
  /** The label's heading level: 2 on a question page, 3 inside a titled sibling group. */
  headingLevel?: 2 | 3 | 4;
};

export function QuestionBody({ headingLevel = 2, ...props }: QuestionBodyProps) {
  const commentsId = useId();
  const { question, labelId } = props;
  const type = question.type;
  if (!isKnownQuestionType(type) || PAGE_TYPES.has(type)) return null;

  const Control = CONTROLS[type];
  const Heading = `h${headingLevel}` as const;
  const describedBy = question.comments ? commentsId : undefined;
  const control = Control ? <Control {...props} describedBy={describedBy} /> : null;

  return (
    <div className={classNames("question", `question--${type.replaceAll("_", "-")}`)}>
      <Heading id={labelId} tabIndex={-1} className="question__label" data-question-label="">
        {question.label}
      </Heading>
      {question.imageSrc ? <img className="question__image" src={question.imageSrc} alt="" /> : null}
      {question.comments ? (
        <div id={commentsId} className="question__comments">
          {question.comments}
        </div>
      ) : null}
      {isLazyType(type) ? <LazyQuestionControl type={type} {...props} describedBy={describedBy} /> : control}
    </div>
  );
}

function LazyQuestionControl({ type, ...props }: QuestionProps & { type: LazyType }) {
  const [, setAttempt] = useState(0);
  const lazyControl = LAZY_CONTROLS[type];
  const Control = lazyControl.current;
  return (
    <LoadFailureBoundary
      onRetry={() => {
        lazyControl.retry();
        setAttempt((attempt) => attempt + 1);
      }}
    >
      <Suspense
        fallback={
          <p className="question__loading" role="status">
            <Trans id="question_loading">Loading…</Trans>
          </p>
        }
      >
        <Control {...props} />
      </Suspense>
    </LoadFailureBoundary>
  );
}
