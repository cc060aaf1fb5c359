/**
 * One question as the instrument page shows it: its label (a focusable heading the page moves
 * focus to and labels the controls with), its image and instructions, and the control of its
 * type. The page owns the footer, the introduction's begin/finish, the submission step and the
 * consent signature. An unknown type renders nothing (the page reports parsingFailed).
 *
 * The pdf, image capture and scribble controls carry large libraries (pdf.js, the cropper, the
 * signature pad): they load on demand so the instrument route stays small.
 */
import { Trans } from "@lingui/react/macro";
import { Component, lazy, Suspense, useId, type ComponentType, type ReactNode } from "react";
import { isKnownQuestionType, type QuestionType } from "../engine/definition.ts";
import { classNames } from "./class-names.ts";
import { DateQuestion } from "./date-question.tsx";
import { DatetimeQuestion } from "./datetime-question.tsx";
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

const PdfQuestion = lazy(() =>
  import("./pdf-question.tsx").then((module) => ({ default: module.PdfQuestion })),
);
const ImageCaptureQuestion = lazy(() =>
  import("./image-capture-question.tsx").then((module) => ({ default: module.ImageCaptureQuestion })),
);
const ScribbleQuestion = lazy(() =>
  import("./scribble-question.tsx").then((module) => ({ default: module.ScribbleQuestion })),
);

/** What each type shows under its label; null: the label is all (or the page shows it). */
const CONTROLS: Record<QuestionType, ComponentType<QuestionProps> | null> = {
  introduction: null,
  prompt: null,
  select_one: SelectOneQuestion,
  select_multiple: SelectMultipleQuestion,
  pdf: PdfQuestion,
  text: TextQuestion,
  decimal: DecimalQuestion,
  integer: IntegerQuestion,
  likert: LikertQuestion,
  time: TimeQuestion,
  date: DateQuestion,
  datetime: DatetimeQuestion,
  numeric_rating_scale: NumericRatingScaleQuestion,
  multiple_field: MultipleFieldQuestion,
  matrix: MatrixQuestion,
  scribble: ScribbleQuestion,
  image_capture: ImageCaptureQuestion,
  consent_signature: null,
  submission: null,
};

const LAZY_TYPES = new Set<QuestionType>(["pdf", "image_capture", "scribble"]);
/** Types the page renders itself: QuestionBody renders nothing for them. */
const PAGE_TYPES = new Set<QuestionType>(["submission", "consent_signature"]);

/** A lazily loaded control that failed to load (offline without it cached): say so, do not crash the page. */
class LoadFailureBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error("A question control failed to load", error);
  }

  override render() {
    if (this.state.failed) {
      return (
        <p className="question__load-error" role="alert">
          <Trans id="question_load_failed">
            This question could not be shown. Check the connection, then reload the page.
          </Trans>
        </p>
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
      {control && LAZY_TYPES.has(type) ? (
        <LoadFailureBoundary>
          <Suspense
            fallback={
              <p className="question__loading" role="status">
                <Trans id="question_loading">Loading…</Trans>
              </p>
            }
          >
            {control}
          </Suspense>
        </LoadFailureBoundary>
      ) : (
        control
      )}
    </div>
  );
}
