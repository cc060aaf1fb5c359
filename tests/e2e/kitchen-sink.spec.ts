/**
 * The demo "Kitchen sink" instrument, answered through every question type on its default path
 * (server/seed/instruments/kitchen-sink.json, `_test_notes`: colour Red, notes answered,
 * weight 70, age 30, mood5 Agree, pain 5), a cropped photo uploaded before the submission, and
 * the submission payload of spec 02 §3 checked field by field.
 *
 * Participants: study 102 (instances list), 75 and 77, both at site 1021; no other spec uses
 * them. The browser runs in India Standard Time (+05:30, no daylight saving time): the time
 * answers carry that offset and the datetime is converted to UTC.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Request, type Response } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import {
  finishAndCapture,
  isSubmissionCall,
  isUploadCall,
  KITCHEN_SINK,
  KITCHEN_SINK_STEPS,
  makeJpeg,
  openKitchenSink,
  recordOf,
} from "./fixtures/kitchen-sink.ts";
import { storedUser } from "./pages/login-page.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { COORDINATOR } from "./support/demo.ts";

const STUDY = 102;
const SITE = 1021;
const PORTAL_VERSION = (
  JSON.parse(readFileSync(fileURLToPath(new URL("../../package.json", import.meta.url)), "utf8")) as {
    version: string;
  }
).version;

test.use({ timezoneId: "Asia/Kolkata" });

test("every question type on the default path, a cropped photo, and the submission payload", async ({
  page,
}) => {
  // The longest journey of the suite: 16 s on an idle machine, over 90 s on a busy CI host.
  test.setTimeout(240_000);
  const participantId = 75;
  const { survey, home, instrumentId, instanceId } = await openKitchenSink(page, {
    studyId: STUDY,
    siteId: SITE,
    participantId,
  });
  const of = (step: number) => `${step} of ${KITCHEN_SINK_STEPS}`;

  // What the network does from here on, in order: the photo upload must answer before the
  // submission is even sent.
  const timeline: string[] = [];
  const uploads: Request[] = [];
  page.context().on("request", (request: Request) => {
    if (isUploadCall(request)) uploads.push(request);
    if (isSubmissionCall(instrumentId)(request)) timeline.push("submission sent");
  });
  page.context().on("response", (response: Response) => {
    if (isUploadCall(response.request())) timeline.push(`upload answered ${response.status()}`);
    if (isSubmissionCall(instrumentId)(response.request())) {
      timeline.push(`submission answered ${response.status()}`);
    }
  });

  // 1. Introduction: Begin, and the first step of 24 (23 steps + the submission step).
  await survey.expectStep("Kitchen sink");
  await expect(survey.question("Kitchen sink")).toContainText("Nothing here is clinical.");
  await expect(survey.progressText()).toHaveText(of(1));
  await expect(survey.progress()).toHaveAttribute("max", String(KITCHEN_SINK_STEPS));
  await expect(survey.back()).toHaveCount(0);
  await expectNoSeriousViolations(page);
  await survey.begin().click();

  // 2. Select one with images: required, so Next waits for a choice.
  await survey.expectStep("Pick a colour");
  await expect(survey.progressText()).toHaveText(of(2));
  const colour = survey.question("Pick a colour");
  await expect(colour.getByRole("radio")).toHaveCount(3);
  await expect(colour.locator("img.choice__image")).toHaveCount(3);
  for (const image of await colour.locator("img.choice__image").all()) await expect(image).toBeVisible();
  await expect(survey.next()).toBeDisabled();
  await expect(survey.skip()).toHaveCount(0);
  await survey.choose("Red");
  await expect(colour.getByRole("radio", { name: "Red" })).toBeChecked();
  await survey.next().click();

  // 3. Select multiple: optional (Skip) until something is checked.
  await survey.expectStep("Which of these apply today?");
  await expect(survey.back()).toBeVisible();
  await expect(survey.skip()).toBeVisible();
  const symptoms = survey.question("Which of these apply today?");
  await symptoms.getByRole("checkbox", { name: "Headache" }).check();
  await symptoms.getByRole("checkbox", { name: "Fatigue" }).check();
  await expect(symptoms.getByRole("checkbox", { name: "Nausea" })).not.toBeChecked();
  await expect(survey.next()).toBeVisible();
  await survey.next().click();

  // 4. Prompt (shown for Red).
  await survey.pass("You picked red.");

  // 5. PDF: the first page is drawn on a canvas by react-pdf.
  await survey.expectStep("Read the sample leaflet");
  const leaflet = survey.question("Read the sample leaflet");
  await expect(leaflet.locator(".pdf-question__page canvas").first()).toBeVisible({ timeout: 15_000 });
  await expect(leaflet.getByRole("link", { name: /Open the PDF/ })).toHaveAttribute(
    "href",
    "/survey-samples/sample.pdf",
  );
  await survey.nextOrSkip().click();

  // 6. Text: a live counter, and no more than 140 characters.
  await survey.expectStep("Any notes?");
  await expect(survey.progressText()).toHaveText(of(6));
  const notes = survey.question("Any notes?").getByRole("textbox", { name: "Any notes?" });
  const counter = survey.question("Any notes?").getByText(/^\d+ \/ 140$/);
  await expect(counter).toHaveText("0 / 140");
  await expect(notes).toHaveAccessibleDescription(/At most 140 characters\.\s*0 \/ 140/);
  await notes.pressSequentially("Slept");
  await expect(counter).toHaveText("5 / 140");
  await notes.pressSequentially("x".repeat(150));
  await expect(notes).toHaveValue(`Slept${"x".repeat(135)}`);
  await expect(counter).toHaveText("140 / 140");
  await expect(page.getByText("Character limit of 140 reached.")).toBeAttached();
  await notes.fill("Slept well");
  await expect(counter).toHaveText("10 / 140");
  await survey.next().click();

  // 7. Decimal (notes_missing is skipped: the progress jumps from 6 to 8): step 0.1, rounded.
  await survey.expectStep("Weight");
  await expect(survey.progressText()).toHaveText(of(8));
  const weight = survey.question("Weight").getByRole("spinbutton", { name: "Weight" });
  await expect(weight).toHaveAttribute("step", "0.1");
  await expect(survey.question("Weight").getByText("kg", { exact: true })).toBeVisible();
  await expect(survey.next()).toBeDisabled();
  await weight.fill("70.25");
  await weight.press("Tab");
  await expect(weight).toHaveValue("70.3");
  await survey.next().click();

  // 8. Integer: a number out of bounds says so and stores nothing; a decimal is rounded.
  await survey.expectStep("Age");
  const age = survey.question("Age").getByRole("spinbutton", { name: "Age" });
  await expect(age).toHaveAttribute("step", "1");
  await age.fill("130");
  await expect(survey.question("Age").getByText("Enter a number from 0 to 120.")).toBeVisible();
  await expect(age).toHaveAttribute("aria-invalid", "true");
  await expect(survey.next()).toBeDisabled();
  await age.fill("29.6");
  await age.press("Tab");
  await expect(age).toHaveValue("30");
  await expect(survey.question("Age").getByText("Enter a number from 0 to 120.")).toHaveCount(0);
  await survey.next().click();

  // 9. Likert 5: every label shows under its point.
  await survey.expectStep("I feel well today.");
  const mood5 = survey.question("I feel well today.");
  await expect(mood5.getByRole("radio")).toHaveCount(5);
  for (const label of ["Strongly disagree", "Disagree", "Neutral", "Agree", "Strongly agree"]) {
    await expect(mood5.getByText(label, { exact: true })).toBeVisible();
  }
  await survey.choose("Agree");
  await survey.next().click();

  // 10. Likert 7 (shown: mood5 is 3 or more).
  await survey.expectStep("How was your week?");
  await expect(survey.question("How was your week?").getByRole("radio")).toHaveCount(7);
  await survey.choose("Good");
  await survey.next().click();

  // 11. Time, 24 hour clock: hour 00 to 23.
  await survey.expectStep("When did you wake up? (24 hour clock)");
  const wake = survey.question("When did you wake up? (24 hour clock)");
  await expect(wake.getByLabel("Hour", { exact: true }).locator("option")).toHaveCount(25);
  await expect(wake.getByLabel("AM or PM", { exact: true })).toHaveCount(0);
  await wake.getByLabel("Hour", { exact: true }).selectOption("07");
  await wake.getByLabel("Minute", { exact: true }).selectOption("30");
  await survey.next().click();

  // 12. Time, 12 hour clock: hour 01 to 12 and AM or PM.
  await survey.expectStep("When did you go to bed? (12 hour clock)");
  const bed = survey.question("When did you go to bed? (12 hour clock)");
  await expect(bed.getByLabel("Hour", { exact: true }).locator("option")).toHaveCount(13);
  await bed.getByLabel("Hour", { exact: true }).selectOption("10");
  await bed.getByLabel("Minute", { exact: true }).selectOption("45");
  await expect(survey.skip()).toBeVisible();
  await bed.getByLabel("AM or PM", { exact: true }).selectOption("PM");
  await survey.next().click();

  // 13. Date.
  await survey.expectStep("Date of the last visit");
  await expect(survey.progressText()).toHaveText(of(14));
  // The spec's date input, typed: the browser's short date (en-US), only digits and "/" taken
  // (the "x" and "-" are refused), Enter submits.
  const lastVisit = survey.question("Date of the last visit").getByRole("textbox");
  await expect(lastVisit).not.toHaveAttribute("type", "date");
  await expect(survey.question("Date of the last visit")).toContainText("For example 12/31/2025");
  await lastVisit.pressSequentially("11/31/2026");
  await lastVisit.press("Enter");
  await expect(survey.question("Date of the last visit").getByRole("alert")).toHaveText(
    "Enter a date like 12/31/2025.",
  );
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "dates", "date-question-invalid", { fullPage: false });
  await lastVisit.clear();
  await lastVisit.pressSequentially("11/2x0-/2026");
  await expect(lastVisit).toHaveValue("11/20/2026");
  await lastVisit.press("Enter");

  // 14. Datetime: both parts, or nothing.
  await survey.expectStep("Date and time of the next visit");
  const visit = survey.question("Date and time of the next visit");
  await visit.getByLabel("Date", { exact: true }).fill("12/01/2026");
  await visit.getByLabel("Hour", { exact: true }).selectOption("09");
  await expect(survey.skip()).toBeVisible();
  await visit.getByLabel("Minute", { exact: true }).selectOption("15");
  await survey.next().click();

  // 15. Numeric rating scale 0 to 10, its two ends labelled.
  await survey.expectStep("Pain right now");
  const pain = survey.question("Pain right now");
  await expect(pain.getByRole("radio")).toHaveCount(11);
  await expect(pain.getByRole("radiogroup", { name: "Pain right now" })).toHaveAccessibleDescription(
    /No pain.*Worst pain imaginable/,
  );
  await survey.choose("5");
  await survey.next().click();

  // 16. Multiple field (pain_severe is skipped: pain is not 10): answered only with every field.
  await survey.expectStep("Vital signs");
  await expect(survey.progressText()).toHaveText(of(18));
  const vitals = survey.question("Vital signs");
  await vitals.getByLabel("Blood pressure").fill("120/80");
  await vitals.getByLabel("Heart rate (bpm)").fill("72");
  await expect(survey.skip()).toBeVisible();
  await vitals.getByLabel("Temperature (°C)").fill("36.6");
  await expect(survey.next()).toBeVisible();
  await survey.next().click();

  // 17. Matrix: each row a radiogroup; answered only once every row is.
  await survey.expectStep("How often in the past week did you...");
  const matrix = survey.question("How often in the past week did you...");
  const fallAsleep = matrix.getByRole("radiogroup", { name: "...have trouble falling asleep?" });
  const wakeNight = matrix.getByRole("radiogroup", { name: "...wake during the night?" });
  await expect(fallAsleep.getByRole("radio")).toHaveCount(3);
  await expect(wakeNight.getByRole("radio")).toHaveCount(3);
  await fallAsleep.getByRole("radio", { name: "Sometimes" }).check();
  await expect(survey.skip()).toBeVisible();
  await wakeNight.getByRole("radio", { name: "Often" }).check();
  await expect(fallAsleep.getByRole("radio", { name: "Sometimes" })).toBeChecked();
  await expect(survey.next()).toBeVisible();
  await expectNoSeriousViolations(page);
  await survey.next().click();

  // 18. Scribble: a stroke drawn with the mouse answers it.
  await survey.expectStep("Draw a circle");
  const pad = survey
    .question("Draw a circle")
    .getByRole("img", { name: "Drawing area: draw with a finger or a stylus" });
  await expect(pad).toBeVisible();
  await expect(survey.skip()).toBeVisible();
  const box = (await pad.boundingBox())!;
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const radius = Math.min(box.width, box.height) / 4;
  await page.mouse.move(centre.x + radius, centre.y);
  await page.mouse.down();
  for (let angle = 0; angle <= 360; angle += 20) {
    const radians = (angle * Math.PI) / 180;
    await page.mouse.move(centre.x + radius * Math.cos(radians), centre.y + radius * Math.sin(radians), {
      steps: 2,
    });
  }
  await page.mouse.up();
  await expect(survey.next()).toBeVisible();
  await survey.next().click();

  // 19. Image capture: a landscape JPEG, cropped square, zoomed and rotated in the editor.
  await survey.expectStep("Take up to three photos of the test strip");
  const photos = survey.question("Take up to three photos of the test strip");
  await expect(photos.getByText("Hold the strip flat, in good light.")).toBeVisible();
  await expect(photos.getByRole("img", { name: "Sample photo 1 of 3" })).toBeVisible();
  await expect(photos.getByText("0 of 3 photos")).toBeVisible();
  const jpeg = await makeJpeg(page, 640, 400);
  const chooser = page.waitForEvent("filechooser");
  await photos.getByRole("button", { name: "Add Photo" }).click();
  await (await chooser).setFiles({ name: "test-strip.jpg", mimeType: "image/jpeg", buffer: jpeg });

  const editor = page.getByRole("dialog", { name: "Edit photo" });
  await expect(editor).toBeVisible();
  const toCrop = editor.getByRole("img", { name: "The photo to crop" });
  await expect(toCrop).toBeVisible();
  await expect(editor.getByRole("button", { name: "Done" })).toBeEnabled();
  const zoom = editor.getByRole("slider", { name: "Zoom" });
  await zoom.focus();
  for (let press = 0; press < 5; press++) await zoom.press("ArrowRight");
  await expect(zoom).toHaveAttribute("aria-valuetext", "1.5×");
  await editor.getByRole("button", { name: "Rotate right" }).click();
  await expect(toCrop).toHaveAttribute("style", /scale\(1\.5\) rotate\(90deg\)/);
  await expectNoSeriousViolations(page);
  await editor.getByRole("button", { name: "Done" }).click();
  await expect(editor).toBeHidden();

  const thumbnail = photos.getByRole("img", { name: "Photo 1", exact: true });
  await expect(thumbnail).toBeVisible();
  await expect(photos.getByText("1 of 3 photos")).toBeVisible();
  await expect(photos.getByRole("button", { name: "Delete photo 1" })).toBeVisible();
  // The crop is square, whatever the shape of the photo chosen.
  await expect
    .poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBeGreaterThan(0);
  const [thumbWidth, thumbHeight] = await thumbnail.evaluate((image: HTMLImageElement) => [
    image.naturalWidth,
    image.naturalHeight,
  ]);
  expect(thumbWidth).toBeGreaterThan(0);
  expect(thumbWidth).toBe(thumbHeight);
  await survey.next().click();

  // 20. The sibling group: three questions on one step, with one footer.
  await expect(survey.progressText()).toHaveText(of(22));
  const feeling = survey.question("Today overall");
  const energy = survey.question("Energy");
  const comment = survey.question("Comment");
  await expect(feeling).toBeVisible();
  await expect(energy).toBeVisible();
  await expect(comment).toBeVisible();
  await expect(survey.questionHeading("Today overall")).toBeFocused();
  await expect(survey.nextOrSkip()).toHaveCount(1);
  // A choice in the first sibling is recorded and the group stays: its other questions are still
  // to answer (it used to move on and submit them empty).
  await feeling.getByRole("radio", { name: "Bad" }).click();
  await expect(feeling.getByRole("radio", { name: "Bad" })).toBeChecked();
  await expect(energy).toBeVisible();
  await expect(survey.submissionHeading()).toHaveCount(0);
  await energy.getByRole("radio", { name: "6", exact: true }).check();
  await expect(survey.skip()).toBeVisible();
  await comment.getByRole("textbox", { name: "Comment" }).fill("Tired but fine");
  await expect(energy.getByRole("radio", { name: "6", exact: true })).toBeChecked();
  // Changing the choice once no sibling is left unanswered completes the step at once.
  await feeling.getByRole("radio", { name: "Good" }).click();

  // 21. The submission step (combined_note is skipped: neither Green nor the lowest mood).
  await expect(survey.submissionHeading()).toBeFocused();
  await expect(survey.progressText()).toHaveText(of(KITCHEN_SINK_STEPS));
  await expectNoSeriousViolations(page);
  expect(timeline).toEqual([]);
  const payload = await finishAndCapture(page, survey, instrumentId);

  // The photo was uploaded (the upload answers 200) before the submission was sent, and the submission stored.
  expect(timeline).toEqual(["upload answered 200", "submission sent", "submission answered 201"]);
  expect(uploads).toHaveLength(1);

  // The payload (spec 02 §3).
  const user = await storedUser(page);
  const userAgent = await page.evaluate(() => navigator.userAgent);
  expect(payload).toMatchObject({
    id: "kitchen-sink",
    type: "CLINRO",
    title: KITCHEN_SINK,
    state: "COMPLETE",
    completed_by: user?.id,
    identity: COORDINATOR,
    version: PORTAL_VERSION,
    version_number: 1,
    instrument_id: instrumentId,
    instance_id: instanceId,
    instrument_instance_id: instanceId,
    browser_info: userAgent,
  });
  expect(payload).not.toHaveProperty("url");
  expect(Date.parse(payload.start_time)).toBeLessThanOrEqual(Date.parse(payload.completion));
  expect(payload.attachments).toHaveLength(1);
  const photoName = payload.attachments[0]!;
  expect(photoName).toMatch(
    new RegExp(`^${STUDY}_${participantId}_${instrumentId}_photos_[A-Za-z0-9-]+\\.jpeg$`),
  );
  // The upload: multipart, header version 009 (its body holds a blob, which the browser does not
  // hand to the test).
  const uploadHeaders = await uploads[0]!.allHeaders();
  expect(uploadHeaders["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
  expect(uploadHeaders["version"]).toBe("009");

  // One record per question shown, in the order shown; none for the questions skipped by logic.
  expect(payload.answers.map((record) => record.id)).toEqual([
    "intro",
    "color",
    "symptoms",
    "red_note",
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
  // An introduction is REQUIRED, a prompt or a pdf (nothing to answer) SKIPPED, the rest answered.
  expect(recordOf(payload, "intro")).toMatchObject({ state: "REQUIRED", answer: [] });
  expect(recordOf(payload, "intro")).not.toHaveProperty("time_answered");
  for (const id of ["red_note", "leaflet"]) {
    expect(recordOf(payload, id)).toMatchObject({ state: "SKIPPED", answer: [] });
    expect(recordOf(payload, id)).not.toHaveProperty("time_answered");
  }
  const answered = payload.answers.filter((record) => !["intro", "red_note", "leaflet"].includes(record.id));
  for (const record of answered) {
    expect(record.state, record.id).toBe("ANSWERED");
    expect(record.time_answered, record.id).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(record.name, record.id).toBe(record.id);
  }
  const valuesOf = (id: string) => recordOf(payload, id).answer;
  expect(recordOf(payload, "color")).toMatchObject({
    type: "select_one",
    required: true,
    label: "Pick a colour",
  });
  expect(valuesOf("color")).toEqual([{ label: "Red", value: "red", choice_id: "red", score_value: 1 }]);
  expect(valuesOf("symptoms")).toEqual([
    { label: "Headache", value: "headache", choice_id: "headache", score_value: 1 },
    { label: "Fatigue", value: "fatigue", choice_id: "fatigue", score_value: 1 },
  ]);
  expect(valuesOf("notes")).toEqual([{ label: "Slept well", value: "Slept well" }]);
  expect(valuesOf("weight")).toEqual([{ label: "70.3", value: 70.3 }]);
  expect(valuesOf("age")).toEqual([{ label: "30", value: 30 }]);
  expect(valuesOf("mood5")).toEqual([{ label: "Agree", value: "l5_4", choice_id: "l5_4", score_value: 4 }]);
  expect(valuesOf("mood7")).toEqual([{ label: "Good", value: "l7_5", choice_id: "l7_5", score_value: 5 }]);
  // Times: today's date, the time entered, seconds zero, and the browser's offset.
  expect(valuesOf("wake_time")).toEqual([
    { label: "07:30", value: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T07:30:00\+05:30$/) },
  ]);
  expect(valuesOf("bed_time")).toEqual([
    { label: "22:45", value: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T22:45:00\+05:30$/) },
  ]);
  // A date is midnight Z; a datetime is the local time (+05:30) in UTC with seconds zero.
  expect(valuesOf("visit_date")).toEqual([{ label: "2026-11-20", value: "2026-11-20T00:00:00.000Z" }]);
  expect(valuesOf("visit_datetime")).toEqual([
    { label: "2026-12-01 09:15", value: "2026-12-01T03:45:00.000Z" },
  ]);
  expect(valuesOf("pain")).toEqual([{ label: "5", value: 5 }]);
  expect(valuesOf("vitals")).toEqual([
    { label: "120/80", value: "120/80", question: "blood_pressure" },
    { label: "72", value: 72, question: "heart_rate" },
    { label: "36.6", value: 36.6, question: "temperature" },
  ]);
  expect(valuesOf("sleep_matrix")).toEqual([
    {
      label: "Sometimes",
      value: "sometimes",
      choice_id: "sometimes",
      score_value: 1,
      question: "fall_asleep",
    },
    { label: "Often", value: "often", choice_id: "often", score_value: 2, question: "wake_night" },
  ]);
  expect(valuesOf("drawing")).toEqual([
    { label: "", value: expect.stringMatching(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/) },
  ]);
  expect(valuesOf("photos")).toEqual([{ label: photoName, value: photoName }]);
  expect(recordOf(payload, "daily_feeling")).toMatchObject({ sibling_id: "daily" });
  expect(recordOf(payload, "daily_energy")).toMatchObject({ sibling_id: "daily" });
  expect(recordOf(payload, "daily_comment")).toMatchObject({ sibling_id: "daily" });
  expect(valuesOf("daily_feeling")).toEqual([
    { label: "Good", value: "good", choice_id: "good", score_value: 1 },
  ]);
  expect(valuesOf("daily_energy")).toEqual([{ label: "6", value: 6 }]);
  expect(valuesOf("daily_comment")).toEqual([{ label: "Tired but fine", value: "Tired but fine" }]);
  // sum({mood5}, {daily_energy}) + {pain} = 4 + 6 + 5.
  expect(payload.scores).toEqual([expect.objectContaining({ id: "wellbeing", final_value: 15 })]);

  // Back on the participant page: the success message, and the kitchen sink under Completed.
  await expect(page.getByText("Instrument submitted.")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/studies/${STUDY}/sites/${SITE}/participants/${participantId}$`));
  await home.completedTab().click();
  await expect(home.panel()).toContainText(
    new RegExp(`${KITCHEN_SINK.replace(/[()]/g, "\\$&")}\\s*Completed at \\d\\d:\\d\\d by Carmen Ortiz`),
  );
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the matrix rows stack and every choice can be chosen", async ({ page }) => {
    const { survey } = await openKitchenSink(page, { studyId: STUDY, siteId: SITE, participantId: 77 });
    await survey.expectStep("Kitchen sink");
    await survey.begin().click();
    await survey.expectStep("Pick a colour");
    await survey.choose("Red");
    await survey.next().click();
    await survey.pass("Which of these apply today?");
    await survey.pass("You picked red.");
    await survey.pass("Read the sample leaflet");
    await survey.pass("Any notes?");
    await survey.pass("You left the notes empty.");
    await survey.expectStep("Weight");
    await page.getByRole("spinbutton", { name: "Weight" }).fill("70");
    await survey.next().click();
    await survey.expectStep("Age");
    await page.getByRole("spinbutton", { name: "Age" }).fill("30");
    await survey.next().click();
    await survey.expectStep("I feel well today.");
    await survey.choose("Agree");
    await survey.next().click();
    for (const label of [
      "How was your week?",
      "When did you wake up? (24 hour clock)",
      "When did you go to bed? (12 hour clock)",
      "Date of the last visit",
      "Date and time of the next visit",
    ]) {
      await survey.pass(label);
    }
    await survey.expectStep("Pain right now");
    await survey.choose("5");
    await survey.next().click();

    // Vital signs are skipped (no notes): the matrix comes next.
    await survey.expectStep("How often in the past week did you...");
    await expect(survey.progressText()).toHaveText(`19 of ${KITCHEN_SINK_STEPS}`);
    const matrix = survey.question("How often in the past week did you...");
    const rows = [
      matrix.getByRole("radiogroup", { name: "...have trouble falling asleep?" }),
      matrix.getByRole("radiogroup", { name: "...wake during the night?" }),
    ];
    for (const row of rows) {
      // The row label sits above its choices, which stack one under the other, each with its
      // own visible label, within the width of the screen.
      const label = (await row.locator(".matrix__row-label").boundingBox())!;
      const cells = row.locator("label");
      await expect(cells).toHaveCount(3);
      let previousBottom = label.y + label.height;
      for (const [index, name] of ["Never", "Sometimes", "Often"].entries()) {
        const cell = cells.nth(index);
        await expect(cell.getByText(name, { exact: true })).toBeVisible();
        const cellBox = (await cell.boundingBox())!;
        expect(cellBox.y).toBeGreaterThanOrEqual(previousBottom - 1);
        expect(cellBox.x).toBeGreaterThanOrEqual(0);
        expect(cellBox.x + cellBox.width).toBeLessThanOrEqual(390);
        expect(cellBox.height).toBeGreaterThanOrEqual(44);
        previousBottom = cellBox.y + cellBox.height;
      }
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // A choice showing through the fade above the sticky footer takes the tap meant for it: on
    // a short screen, scroll "Sometimes" of the second row under that fade and tap there.
    await page.setViewportSize({ width: 390, height: 560 });
    const footer = page.locator(".survey__footer");
    const sometimes = rows[1]!.getByText("Sometimes", { exact: true });
    const choiceBox = (await sometimes.boundingBox())!;
    // 6 px above the footer: inside the 16 px fade.
    const inFade = async () => (await footer.boundingBox())!.y - 6;
    await page.evaluate(
      (by) => window.scrollBy(0, by),
      choiceBox.y + choiceBox.height / 2 - (await inFade()),
    );
    const underFade = (await sometimes.boundingBox())!;
    const tapY = await inFade();
    expect(underFade.y).toBeLessThan(tapY);
    expect(underFade.y + underFade.height).toBeGreaterThan(tapY);
    await page.mouse.click(underFade.x + underFade.width / 2, tapY);
    await expect(rows[1]!.getByRole("radio", { name: "Sometimes" })).toBeChecked();
    await screenshotAtSizes(page, "survey", "footer-over-answers", { fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });

    await rows[0]!.getByText("Never", { exact: true }).click();
    await rows[1]!.getByText("Often", { exact: true }).click();
    await expect(rows[0]!.getByRole("radio", { name: "Never" })).toBeChecked();
    await expect(rows[1]!.getByRole("radio", { name: "Often" })).toBeChecked();
    await expect(survey.next()).toBeVisible();
    await expectNoSeriousViolations(page);
    await survey.next().click();
    await survey.expectStep("Draw a circle");
  });
});
