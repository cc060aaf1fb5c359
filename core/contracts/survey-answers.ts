/**
 * Answers as the engine keeps them and submits them (spec 02 section 3, "Submitted question
 * record"): one record per question, holding a list of answer entries.
 *
 * What an entry's value holds, by question type:
 * - select one, select multiple, likert: the choice id (with choice_id, label and score_value);
 * - matrix: one entry per row, with question = the row id and the chosen column as above;
 * - multiple field: one entry per field, with question = the field id, a string or a number;
 * - text: the text; integer and decimal, numeric rating scale: the number;
 * - date: midnight Z (2026-11-22T00:00:00.000Z); datetime: an ISO string with seconds zero;
 *   time: an ISO timestamp with the local offset (2026-11-22T14:30:00+01:00);
 * - image capture: one entry per photo, the uploaded file name;
 * - scribble: a PNG data URL of the drawing.
 */

export type AnswerValue = string | number | boolean | null;

export type AnswerEntry = {
  label: string;
  value: AnswerValue;
  /** Matrix rows and multiple-field fields: the sub-question this entry answers. */
  question?: string | undefined;
  score_value?: number | undefined;
  choice_id?: string | undefined;
  /** Consents: draw, text, camera or image. */
  signature_type?: string | undefined;
  signed_date?: string | undefined;
};

/** ANSWERED when a value exists, SKIPPED when empty, REQUIRED for an introduction (spec 02 §4). */
export const ANSWER_STATES = ["ANSWERED", "SKIPPED", "REQUIRED"] as const;
export type AnswerState = (typeof ANSWER_STATES)[number];

export type AnswerRecord = {
  id: string;
  label: string;
  name: string;
  type: string;
  required: boolean;
  state: AnswerState;
  answer: AnswerEntry[];
  /** Only when answered. */
  time_answered?: string | undefined;
  sibling_id?: string | undefined;
};
