import { describe, expect, it } from "vitest";
import type { AnswerEntry } from "../../../core/contracts/survey-answers.ts";
import { currentStepId, startFlow } from "../../../core/survey-engine/flow.ts";
import { FIXED_NOW, schemaDefinition } from "../../../core/survey-engine/test-fixtures.ts";
import {
  finishedResult,
  reduceSession,
  shownProgress,
  stepView,
  type SessionAction,
  type SurveySession,
} from "./survey-session.ts";

const choices = { yes: { label: "Yes", score_value: 1 }, no: { label: "No", score_value: 0 } };
const definition = schemaDefinition(
  [
    { id: "smokes", type: "select_one", label: "Smokes", attributes: { required: true }, choices },
    {
      id: "packs",
      type: "integer",
      label: "Packs a day",
      logic: { show_if: [{ comparator: "is_selected", question: "smokes", value: "yes" }] },
    },
    { id: "feeling", type: "select_one", label: "Feeling", sibling_id: "day", choices },
    { id: "comment", type: "text", label: "Comment", sibling_id: "day" },
  ],
  { siblings: { day: ["feeling", "comment"] } },
);
const yes: AnswerEntry[] = [{ label: "Yes", value: "yes", choice_id: "yes", score_value: 1 }];
const no: AnswerEntry[] = [{ label: "No", value: "no", choice_id: "no", score_value: 0 }];
const start = (): SurveySession => ({
  flow: startFlow(definition, FIXED_NOW),
  answers: {},
  files: new Map(),
});
const run = (actions: SessionAction[], from = start()) =>
  actions.reduce((session, action) => reduceSession(definition, session, action), from);
const change = (questionId: string, entries: AnswerEntry[]): SessionAction => ({
  type: "change",
  questionId,
  entries,
});
const advance: SessionAction = { type: "advance", now: FIXED_NOW };
const submits: SessionAction = { type: "question-submits", now: FIXED_NOW };

describe("the survey session (the runner's state, without React)", () => {
  it("keeps a change as the step's answer and moves on only once the required answer is given", () => {
    const waiting = run([advance]);
    expect(currentStepId(waiting.flow)).toBe("smokes");
    expect(stepView(definition, waiting, FIXED_NOW).missing.map((question) => question.id)).toEqual([
      "smokes",
    ]);
    const moved = run([change("smokes", yes), advance]);
    expect(currentStepId(moved.flow)).toBe("packs");
    expect(moved.flow.records.map((record) => record.id)).toEqual(["smokes"]);
  });

  it("a selection and the move it asks for, in one event, see the same answers", () => {
    const session = run([change("smokes", yes), submits]);
    expect(currentStepId(session.flow)).toBe("packs");
  });

  it("a selection in a sibling group waits while a sibling is unanswered; the last one moves it on", () => {
    const atGroup = run([change("smokes", no), advance]);
    expect(currentStepId(atGroup.flow)).toBe("day");
    const first = run([change("feeling", yes), submits], atGroup);
    expect(currentStepId(first.flow)).toBe("day");
    const both = run(
      [change("comment", [{ label: "ok", value: "ok" }]), change("feeling", no), submits],
      first,
    );
    expect(stepView(definition, both, FIXED_NOW).atSubmission).toBe(true);
    expect(both.flow.records.map((record) => [record.id, record.answer.map((entry) => entry.value)])).toEqual(
      [
        ["smokes", ["no"]],
        ["feeling", ["no"]],
        ["comment", ["ok"]],
      ],
    );
  });

  it("Back keeps the answers; a changed required answer drops the later questions' edits", () => {
    const answered = run([
      change("smokes", yes),
      advance,
      change("packs", [{ label: "2", value: 2 }]),
      advance,
    ]);
    expect(currentStepId(answered.flow)).toBe("day");
    const back = run([{ type: "back" }, { type: "back" }], answered);
    expect(currentStepId(back.flow)).toBe("smokes");
    expect(stepView(definition, back, FIXED_NOW).answers.smokes).toEqual(yes);
    const changed = run([change("smokes", no), advance], back);
    expect(currentStepId(changed.flow)).toBe("day");
    expect(changed.answers.packs).toBeUndefined();
    expect(changed.flow.records.map((record) => record.id)).toEqual(["smokes"]);
  });

  it("drops a photo no answer names any more, and finishes with the step completed", () => {
    const photo = new Blob(["jpeg"]);
    const withPhoto = reduceSession(definition, start(), {
      type: "change",
      questionId: "smokes",
      entries: yes,
      files: new Map([["unused.jpeg", photo]]),
    });
    expect([...withPhoto.files.keys()]).toEqual([]);
    const result = finishedResult(definition, run([change("smokes", no), advance, advance]), FIXED_NOW);
    expect(result.flow.shown.at(-1)).toBe("submit-id");
  });
});

describe("the progress shown (it reaches its end)", () => {
  const progress = (session: SurveySession, finishOnLastQuestion: boolean) =>
    shownProgress(stepView(definition, session, FIXED_NOW), finishOnLastQuestion);

  it("an instrument counts its steps and the submission step, which reads n of n", () => {
    expect(progress(start(), false)).toEqual({ current: 1, total: 4 });
    expect(progress(run([change("smokes", yes), advance]), false)).toEqual({ current: 2, total: 4 });
    const atSubmission = run([change("smokes", yes), advance, advance, advance]);
    expect(stepView(definition, atSubmission, FIXED_NOW).atSubmission).toBe(true);
    expect(progress(atSubmission, false)).toEqual({ current: 4, total: 4 });
  });

  it("a consent, which finishes on its last question, counts its steps and ends at n of n", () => {
    expect(progress(start(), true)).toEqual({ current: 1, total: 3 });
    expect(progress(run([change("smokes", yes), advance]), true)).toEqual({ current: 2, total: 3 });
    expect(progress(run([change("smokes", yes), advance, advance]), true)).toEqual({ current: 3, total: 3 });
  });

  it("the last step a consent reaches reads n of n when show-if left steps out before it", () => {
    // "No" leaves "packs" out: the last step comes second, and is the end.
    const skipped = run([change("smokes", no), advance]);
    expect(currentStepId(skipped.flow)).toBe("day");
    expect(progress(skipped, true)).toEqual({ current: 3, total: 3 });
    // Back on the first step, the step is not the end while "Yes" keeps "packs" in.
    expect(progress(run([{ type: "back" }, change("smokes", yes)], skipped), true)).toEqual({
      current: 1,
      total: 3,
    });
  });
});
