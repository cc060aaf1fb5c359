/**
 * The contract between the instrument page and the question components: the page owns the
 * draft answers, the flow and the footer (Next, Skip, Back); a component shows one question and
 * reports every change of its answer.
 */
import type { AnswerEntry } from "../../../core/contracts/survey-answers.ts";
import type { Question } from "../../../core/contracts/survey-definition.ts";

export type QuestionContext = {
  studyId: number;
  siteId: number;
  participantId: number;
  instrumentId: number;
};

export type QuestionProps = {
  question: Question;
  /** The answer so far (draft), [] when unanswered. */
  answer: readonly AnswerEntry[];
  /** Blobs of the photos this answer names, by file name. */
  files: ReadonlyMap<string, Blob>;
  /** Every change of the answer; files = the photo blobs now referenced (image capture only). */
  onChange: (answer: AnswerEntry[], files?: ReadonlyMap<string, Blob>) => void;
  /** Enter in a text field (when allowed), or auto-submit of a select one inside a sibling group. */
  onSubmit: () => void;
  /** Answers pre-filled from the server (consents) that may not be changed. */
  readOnly?: boolean;
  inSiblingGroup?: boolean;
  context: QuestionContext;
  /** The id the component gives to the element holding the question label (the page focuses and labels with it). */
  labelId: string;
  /**
   * The id of the question's instructions (its comments block) when it has some: controls add it
   * to their aria-describedby. QuestionBody sets it.
   */
  describedBy?: string | undefined;
};
