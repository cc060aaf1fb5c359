/**
 * The show-if branches of the demo "Kitchen sink" (server/seed/instruments/kitchen-sink.json,
 * `_test_notes`), driven through the real instrument page: which steps follow which answers,
 * what the progress says, what going Back and changing a required answer drops, and that the
 * submission holds no answer to a question its logic hides.
 *
 * Participants, one per test: study 102 (instances list) 79 and 81 at site 1021, study 101
 * (forms list) 41 and 37 at site 1011, whose consent is complete (the study asks consent
 * first). No other spec uses them.
 */
import { expect, test } from "./support/test.ts";
import {
  finishAndCapture,
  KITCHEN_SINK_STEPS,
  openKitchenSink,
  recordOf,
  type DemoParticipant,
  type SubmittedPayload,
} from "./fixtures/kitchen-sink.ts";
import type { SurveyPage } from "./pages/survey-page.ts";

const IN_STUDY_102 = (participantId: number): DemoParticipant => ({
  studyId: 102,
  siteId: 1021,
  participantId,
});
const IN_STUDY_101 = (participantId: number): DemoParticipant => ({
  studyId: 101,
  siteId: 1011,
  participantId,
});

const COLOUR = "Pick a colour";
const SYMPTOMS = "Which of these apply today?";
const RED_NOTE = "You picked red.";
const LEAFLET = "Read the sample leaflet";
const NOTES = "Any notes?";
const NOTES_MISSING = "You left the notes empty.";
const WEIGHT = "Weight";
const AGE = "Age";
const MOOD5 = "I feel well today.";
const MOOD7 = "How was your week?";
const WAKE = "When did you wake up? (24 hour clock)";
const BED = "When did you go to bed? (12 hour clock)";
const VISIT_DATE = "Date of the last visit";
const VISIT_DATETIME = "Date and time of the next visit";
const PAIN = "Pain right now";
const PAIN_SEVERE = "Severe pain reported: tell the study physician.";
const VITALS = "Vital signs";
const MATRIX = "How often in the past week did you...";
const DRAWING = "Draw a circle";
const PHOTOS = "Take up to three photos of the test strip";
const COMBINED_NOTE = "Green with strong pain, or feeling very unwell: check on the participant.";

const of = (step: number) => `${step} of ${KITCHEN_SINK_STEPS}`;

/** Waits for a step, checks the progress shows its position, and returns. */
async function atStep(survey: SurveyPage, label: string, position: number) {
  await survey.expectStep(label);
  await expect(survey.progressText()).toHaveText(of(position));
}

/** Chooses a radio of a required question (Next waits for it) and moves on. */
async function chooseRequired(survey: SurveyPage, label: string, choice: string) {
  await survey.expectStep(label);
  await expect(survey.next()).toBeDisabled();
  await survey.choose(choice);
  await survey.next().click();
}

/** Types a number into a required number question and moves on. */
async function enterNumber(survey: SurveyPage, label: string, value: string) {
  await survey.expectStep(label);
  await expect(survey.next()).toBeDisabled();
  await survey.question(label).getByRole("spinbutton", { name: label }).fill(value);
  await survey.next().click();
}

/** Skips every optional question from the matrix to the sibling group (answering nothing). */
async function skipMatrixToSiblings(survey: SurveyPage) {
  await atStep(survey, MATRIX, 19);
  await survey.skip().click();
  await survey.pass(DRAWING);
  await survey.pass(PHOTOS);
  await expect(survey.question("Today overall")).toBeVisible();
  await expect(survey.progressText()).toHaveText(of(22));
  await survey.skip().click();
}

const idsOf = (payload: SubmittedPayload) => payload.answers.map((record) => record.id);

test("Blue, skipped notes, weight 250, age 17, Disagree and pain 10 skip and show what the notes say", async ({
  page,
}) => {
  const { survey, instrumentId } = await openKitchenSink(page, IN_STUDY_102(79));
  // Progress: 1 of (23 steps + the submission step); the sibling group is one step.
  await atStep(survey, "Kitchen sink", 1);
  await survey.begin().click();
  await chooseRequired(survey, COLOUR, "Blue");

  // Blue: no symptoms (is_not_selected blue) and no red note (is_selected red).
  await atStep(survey, LEAFLET, 5);
  await survey.nextOrSkip().click();
  // Notes skipped: the "empty notes" prompt shows (is_not_answered).
  await atStep(survey, NOTES, 6);
  await expect(survey.skip()).toBeVisible();
  await survey.skip().click();
  await atStep(survey, NOTES_MISSING, 7);
  await survey.nextOrSkip().click();

  await enterNumber(survey, WEIGHT, "250");
  await enterNumber(survey, AGE, "17");
  await chooseRequired(survey, MOOD5, "Disagree");
  // Disagree (2) hides the likert 7 (>= 3); age 17 hides the wake-up time (> 17).
  await atStep(survey, BED, 13);
  await survey.skip().click();
  // Weight 250 hides the date of the last visit (<= 200), not the next visit (!= 0).
  await atStep(survey, VISIT_DATETIME, 15);
  await survey.skip().click();

  await atStep(survey, PAIN, 16);
  await survey.choose("10");
  await survey.next().click();
  // Pain 10 shows the severe-pain prompt (= 10).
  await atStep(survey, PAIN_SEVERE, 17);
  await survey.nextOrSkip().click();
  // Skipped notes hide the vital signs (is_answered): the matrix follows.
  await skipMatrixToSiblings(survey);
  // Neither Green with pain 8 or more, nor the lowest mood: no combined note.
  await expect(survey.submissionHeading()).toBeFocused();
  await expect(survey.progressText()).toHaveText(of(KITCHEN_SINK_STEPS));

  const payload = await finishAndCapture(page, survey, instrumentId);
  expect(idsOf(payload)).toEqual([
    "intro",
    "color",
    "leaflet",
    "notes",
    "notes_missing",
    "weight",
    "age",
    "mood5",
    "bed_time",
    "visit_datetime",
    "pain",
    "pain_severe",
    "sleep_matrix",
    "drawing",
    "photos",
    "daily_feeling",
    "daily_energy",
    "daily_comment",
  ]);
  for (const hidden of [
    "symptoms",
    "red_note",
    "mood7",
    "wake_time",
    "visit_date",
    "vitals",
    "combined_note",
  ]) {
    expect(idsOf(payload)).not.toContain(hidden);
  }
  expect(recordOf(payload, "notes")).toMatchObject({ state: "SKIPPED", answer: [] });
  expect(recordOf(payload, "weight").answer).toEqual([{ label: "250", value: 250 }]);
  expect(recordOf(payload, "pain").answer).toEqual([{ label: "10", value: 10 }]);
  // sum({mood5}, {daily_energy}) + {pain}: Disagree 2, energy unanswered 0, pain 10.
  expect(payload.scores).toEqual([expect.objectContaining({ id: "wellbeing", final_value: 12 })]);
});

test("Green, weight 0, age 100, Strongly disagree and pain 0: 0 answers, and the nested or shows the note", async ({
  page,
}) => {
  const { survey, instrumentId } = await openKitchenSink(page, IN_STUDY_101(41));
  await atStep(survey, "Kitchen sink", 1);
  await expect(survey.progress()).toHaveAttribute("value", "1");
  await survey.begin().click();
  await chooseRequired(survey, COLOUR, "Green");
  // Green: symptoms show (not Blue), the red note does not.
  await atStep(survey, SYMPTOMS, 3);
  await survey.skip().click();
  await atStep(survey, LEAFLET, 5);
  await survey.nextOrSkip().click();
  await survey.expectStep(NOTES);
  await survey.question(NOTES).getByRole("textbox", { name: NOTES }).fill("Calm");
  await survey.next().click();

  // Notes answered: no "empty notes" prompt. A required number accepts 0.
  await atStep(survey, WEIGHT, 8);
  await enterNumber(survey, WEIGHT, "0");
  await enterNumber(survey, AGE, "100");
  await chooseRequired(survey, MOOD5, "Strongly disagree");
  // Strongly disagree (1) hides the likert 7; age 100 shows the wake-up time (> 17)...
  await atStep(survey, WAKE, 12);
  await survey.skip().click();
  // ...and hides the bedtime (< 100). Weight 0 shows the last visit (<= 200)...
  await atStep(survey, VISIT_DATE, 14);
  await survey.skip().click();
  // ...and hides the next visit (!= 0).
  await atStep(survey, PAIN, 16);
  await expect(survey.next()).toBeDisabled();
  await survey.choose("0");
  await expect(survey.next()).toBeEnabled();
  await survey.next().click();
  // Pain 0: no severe-pain prompt; notes answered: the vital signs show.
  await atStep(survey, VITALS, 18);
  await survey.skip().click();
  await skipMatrixToSiblings(survey);
  // Green but pain below 8, yet the lowest mood: the or of the nested terms holds.
  await atStep(survey, COMBINED_NOTE, 23);
  await survey.nextOrSkip().click();
  await expect(survey.submissionHeading()).toBeFocused();

  const payload = await finishAndCapture(page, survey, instrumentId);
  expect(idsOf(payload)).toEqual([
    "intro",
    "color",
    "symptoms",
    "leaflet",
    "notes",
    "weight",
    "age",
    "mood5",
    "wake_time",
    "visit_date",
    "pain",
    "vitals",
    "sleep_matrix",
    "drawing",
    "photos",
    "daily_feeling",
    "daily_energy",
    "daily_comment",
    "combined_note",
  ]);
  expect(recordOf(payload, "weight")).toMatchObject({
    state: "ANSWERED",
    answer: [{ label: "0", value: 0 }],
  });
  expect(recordOf(payload, "pain")).toMatchObject({ state: "ANSWERED", answer: [{ label: "0", value: 0 }] });
  expect(recordOf(payload, "symptoms")).toMatchObject({ state: "SKIPPED", answer: [] });
  // Strongly disagree 1, energy 0, pain 0.
  expect(payload.scores).toEqual([expect.objectContaining({ id: "wellbeing", final_value: 1 })]);
});

test("Green with pain 8 shows the combined note; Back to pain and 7 drops the later answers and the note", async ({
  page,
}) => {
  const { survey, instrumentId } = await openKitchenSink(page, IN_STUDY_102(81));
  await survey.expectStep("Kitchen sink");
  await survey.begin().click();
  await chooseRequired(survey, COLOUR, "Green");
  await survey.expectStep(SYMPTOMS);
  await survey.question(SYMPTOMS).getByRole("checkbox", { name: "Nausea" }).check();
  await survey.next().click();
  await atStep(survey, LEAFLET, 5);
  await survey.nextOrSkip().click();
  await survey.expectStep(NOTES);
  await survey.question(NOTES).getByRole("textbox", { name: NOTES }).fill("Fine");
  await survey.next().click();
  await enterNumber(survey, WEIGHT, "70");
  await enterNumber(survey, AGE, "30");
  await chooseRequired(survey, MOOD5, "Agree");
  for (const label of [MOOD7, WAKE, BED, VISIT_DATE, VISIT_DATETIME]) await survey.pass(label);
  await chooseRequired(survey, PAIN, "8");
  // Pain 8 is not 10: no severe-pain prompt.
  await atStep(survey, VITALS, 18);
  await survey.skip().click();

  await survey.expectStep(MATRIX);
  const matrix = survey.question(MATRIX);
  const fallAsleep = matrix.getByRole("radiogroup", { name: "...have trouble falling asleep?" });
  const wakeNight = matrix.getByRole("radiogroup", { name: "...wake during the night?" });
  await fallAsleep.getByRole("radio", { name: "Never" }).check();
  await wakeNight.getByRole("radio", { name: "Never" }).check();
  await survey.next().click();
  await survey.pass(DRAWING);
  await survey.pass(PHOTOS);
  const comment = survey.question("Comment").getByRole("textbox", { name: "Comment" });
  await comment.fill("Before the change");
  await survey.skip().click();
  // Green and pain 8 or more: the and-group of the nested or holds.
  await atStep(survey, COMBINED_NOTE, 23);

  // Back, step by step: each earlier step shows again with its answer.
  await survey.back().click();
  await expect(survey.questionHeading("Today overall")).toBeFocused();
  await expect(comment).toHaveValue("Before the change");
  await survey.back().click();
  await survey.expectStep(PHOTOS);
  await survey.back().click();
  await survey.expectStep(DRAWING);
  await survey.back().click();
  await survey.expectStep(MATRIX);
  await expect(fallAsleep.getByRole("radio", { name: "Never" })).toBeChecked();
  await survey.back().click();
  await survey.expectStep(VITALS);
  await survey.back().click();
  await atStep(survey, PAIN, 16);
  await expect(survey.question(PAIN).getByRole("radio", { name: "8", exact: true })).toBeChecked();

  // A changed required answer: every later answer is dropped and must be given again.
  await survey.choose("7");
  await survey.next().click();
  await atStep(survey, VITALS, 18);
  await survey.skip().click();
  await survey.expectStep(MATRIX);
  await expect(fallAsleep.getByRole("radio", { name: "Never" })).not.toBeChecked();
  await expect(wakeNight.getByRole("radio", { name: "Never" })).not.toBeChecked();
  await expect(survey.skip()).toBeVisible();
  await survey.skip().click();
  await survey.pass(DRAWING);
  await survey.pass(PHOTOS);
  await expect(comment).toHaveValue("");
  await survey.skip().click();
  // Pain 7: no combined note; the submission step follows the group.
  await expect(survey.submissionHeading()).toBeFocused();

  const payload = await finishAndCapture(page, survey, instrumentId);
  expect(idsOf(payload)).toEqual([
    "intro",
    "color",
    "symptoms",
    "leaflet",
    "notes",
    "weight",
    "age",
    "mood5",
    "mood7",
    "wake_time",
    "bed_time",
    "visit_date",
    "visit_datetime",
    "pain",
    "vitals",
    "sleep_matrix",
    "drawing",
    "photos",
    "daily_feeling",
    "daily_energy",
    "daily_comment",
  ]);
  // The answers before the change stay; those after it went with it.
  expect(recordOf(payload, "symptoms").answer).toEqual([
    { label: "Nausea", value: "nausea", choice_id: "nausea", score_value: 1 },
  ]);
  expect(recordOf(payload, "pain").answer).toEqual([{ label: "7", value: 7 }]);
  expect(recordOf(payload, "sleep_matrix")).toMatchObject({ state: "SKIPPED", answer: [] });
  expect(recordOf(payload, "daily_comment")).toMatchObject({ state: "SKIPPED", answer: [] });
  // Agree 4, energy 0, pain 7.
  expect(payload.scores).toEqual([expect.objectContaining({ id: "wellbeing", final_value: 11 })]);
});

test("Red with symptoms, then Back to Blue: the symptoms answered are hidden and not submitted", async ({
  page,
}) => {
  const { survey, instrumentId } = await openKitchenSink(page, IN_STUDY_101(37));
  await survey.expectStep("Kitchen sink");
  await survey.begin().click();
  await chooseRequired(survey, COLOUR, "Red");
  await atStep(survey, SYMPTOMS, 3);
  await survey.question(SYMPTOMS).getByRole("checkbox", { name: "Headache" }).check();
  await survey.next().click();
  await atStep(survey, RED_NOTE, 4);
  await survey.nextOrSkip().click();
  await atStep(survey, LEAFLET, 5);

  // Back to the colour, through the prompt and the symptoms (answer kept).
  await survey.back().click();
  await survey.expectStep(RED_NOTE);
  await survey.back().click();
  await survey.expectStep(SYMPTOMS);
  await expect(survey.question(SYMPTOMS).getByRole("checkbox", { name: "Headache" })).toBeChecked();
  await survey.back().click();
  await atStep(survey, COLOUR, 2);
  await expect(survey.question(COLOUR).getByRole("radio", { name: "Red" })).toBeChecked();
  await survey.choose("Blue");
  await survey.next().click();
  // Blue: straight to the leaflet; Back from there returns to the colour, not to the symptoms.
  await atStep(survey, LEAFLET, 5);
  await survey.back().click();
  await survey.expectStep(COLOUR);
  await expect(survey.question(COLOUR).getByRole("radio", { name: "Blue" })).toBeChecked();
  await survey.next().click();
  await atStep(survey, LEAFLET, 5);
  await survey.nextOrSkip().click();

  await survey.pass(NOTES);
  await survey.pass(NOTES_MISSING);
  await enterNumber(survey, WEIGHT, "70");
  await enterNumber(survey, AGE, "30");
  await chooseRequired(survey, MOOD5, "Neutral");
  for (const label of [MOOD7, WAKE, BED, VISIT_DATE, VISIT_DATETIME]) await survey.pass(label);
  await chooseRequired(survey, PAIN, "3");
  await skipMatrixToSiblings(survey);
  await expect(survey.submissionHeading()).toBeFocused();

  const payload = await finishAndCapture(page, survey, instrumentId);
  expect(idsOf(payload)).not.toContain("symptoms");
  expect(idsOf(payload)).not.toContain("red_note");
  expect(idsOf(payload).slice(0, 4)).toEqual(["intro", "color", "leaflet", "notes"]);
  expect(recordOf(payload, "color").answer).toEqual([
    { label: "Blue", value: "blue", choice_id: "blue", score_value: 3 },
  ]);
  // No record names a question twice.
  expect(new Set(idsOf(payload)).size).toBe(payload.answers.length);
});
