/**
 * Show-if between questions of one screen (spec 02 §4), through the runner's pure reducer: what
 * a sibling group shows follows the answers given on it as they change, an answer that would
 * hide a question holding an answer waits for the clinician to confirm erasing it, and what is
 * submitted is what the server accepts. The group is the shape of LHC-Forms'
 * q-with-nested-enableWhen.json (tests/fixtures/third-party/lforms) as the FHIR import reads it: an inner
 * controller and a text shown while the controller is not "A", in a group shown when the parent
 * controller is "Yes".
 */
import { describe, expect, it } from "vitest";
import type { AnswerEntry } from "../../../core/contracts/survey-answers.ts";
import {
  currentStepId,
  isAtSubmission,
  recordsToSubmit,
  startFlow,
} from "../../../core/survey-engine/flow.ts";
import { buildSubmission } from "../../../core/survey-engine/submission.ts";
import {
  choiceEntry,
  FIXED_NOW,
  questionIn,
  schemaDefinition,
  valueEntry,
} from "../../../core/survey-engine/test-fixtures.ts";
import { validateSubmission } from "../../../core/survey-engine/validate-submission.ts";
import { reduceSession, stepView, type SessionAction, type SurveySession } from "./survey-session.ts";

const definition = schemaDefinition(
  [
    {
      id: "p1",
      type: "select_one",
      label: "Parent controller",
      choices: { YES: { label: "Yes" }, NO: { label: "No" } },
    },
    {
      id: "c1",
      type: "select_one",
      label: "Inner controller",
      sibling_id: "g1",
      choices: { A: { label: "A" }, B: { label: "B" } },
      logic: { show_if: [{ comparator: "is_selected", question: "p1", value: "YES" }] },
    },
    {
      id: "d1",
      type: "text",
      label: "Inner dependent (trigger)",
      sibling_id: "g1",
      logic: {
        show_if: [
          { comparator: "is_selected", question: "p1", value: "YES" },
          { comparator: "is_not_selected", question: "c1", value: "A" },
        ],
      },
    },
    {
      id: "d2",
      type: "text",
      label: "Shown while the dependent holds text",
      sibling_id: "g1",
      attributes: { required: true },
      logic: { show_if: [{ comparator: "is_answered", question: "d1" }] },
    },
    {
      id: "b1",
      type: "select_one",
      label: "Shown when B",
      sibling_id: "g1",
      attributes: { required: true },
      choices: { YES: { label: "Yes" }, NO: { label: "No" } },
      logic: { show_if: [{ comparator: "is_selected", question: "c1", value: "B" }] },
    },
  ],
  { siblings: { g1: ["c1", "d1", "d2", "b1"] } },
);

const change = (questionId: string, entries: AnswerEntry[]): SessionAction => ({
  type: "change",
  questionId,
  entries,
});
const choose = (questionId: string, choiceId: string) =>
  change(questionId, [choiceEntry(questionIn(definition, questionId), choiceId)]);
const advance: SessionAction = { type: "advance", now: FIXED_NOW };
const submits: SessionAction = { type: "question-submits", now: FIXED_NOW };
const start = (): SurveySession => ({
  flow: startFlow(definition, FIXED_NOW),
  answers: {},
  files: new Map(),
});
const run = (actions: SessionAction[], from: SurveySession = start()) =>
  actions.reduce((session, action) => reduceSession(definition, session, action), from);
const shown = (session: SurveySession) =>
  stepView(definition, session, FIXED_NOW).questions.map((question) => question.id);
/** The group's screen, reached with "Yes" for the parent. */
const onGroup = () => run([choose("p1", "YES"), advance]);

describe("show-if between the questions of one screen", () => {
  it("opens the group with what its logic shows before any answer on it", () => {
    const session = onGroup();
    expect(currentStepId(session.flow)).toBe("g1");
    expect(shown(session)).toEqual(["c1", "d1"]);
  });

  it("shows a question as soon as an answer on the same screen shows it", () => {
    const session = run([choose("c1", "B")], onGroup());
    expect(shown(session)).toEqual(["c1", "d1", "b1"]);
    // The newly shown required question holds the screen: no moving on without it.
    expect(stepView(definition, session, FIXED_NOW).missing.map((question) => question.id)).toEqual(["b1"]);
    const moved = run([submits], session);
    expect(currentStepId(moved.flow)).toBe("g1");
  });

  it("hides a question holding no answer at once, and a chain of questions with it", () => {
    const session = run([choose("c1", "A")], onGroup());
    expect(session.pendingErase).toBeUndefined();
    expect(shown(session)).toEqual(["c1"]);
  });

  it("follows a text typed on the same screen (a term on an answered text)", () => {
    const typed = run([change("d1", [valueEntry("headache")])], onGroup());
    expect(shown(typed)).toEqual(["c1", "d1", "d2"]);
    const cleared = run([change("d1", [valueEntry("")])], typed);
    expect(shown(cleared)).toEqual(["c1", "d1"]);
  });

  it("asks before an answer hides a question that holds one; the change waits meanwhile", () => {
    const typed = run(
      [change("d1", [valueEntry("headache")]), change("d2", [valueEntry("since Monday")])],
      onGroup(),
    );
    const asking = run([choose("c1", "A")], typed);
    expect(asking.pendingErase).toEqual({
      questionId: "c1",
      entries: [choiceEntry(questionIn(definition, "c1"), "A")],
      erases: ["d1", "d2"],
    });
    // Nothing has changed yet: the screen and its answers are as they were.
    expect(shown(asking)).toEqual(["c1", "d1", "d2"]);
    expect(stepView(definition, asking, FIXED_NOW).answers.d1).toEqual([valueEntry("headache")]);
    // Nothing moves while the question is open.
    expect(run([advance, submits, { type: "back" }], asking)).toBe(asking);
  });

  it("keeping the answers leaves the screen as it was", () => {
    const typed = run([change("d1", [valueEntry("headache")])], onGroup());
    const kept = run([choose("c1", "A"), { type: "keep-answers" }], typed);
    expect(kept.pendingErase).toBeUndefined();
    expect(kept.answers).toEqual(typed.answers);
    expect(shown(kept)).toEqual(["c1", "d1", "d2"]);
  });

  it("erasing applies the change, empties the hidden questions, and never submits them", () => {
    const typed = run(
      [change("d1", [valueEntry("headache")]), change("d2", [valueEntry("since Monday")])],
      onGroup(),
    );
    const erased = run([choose("c1", "A"), { type: "erase-hidden" }], typed);
    expect(erased.pendingErase).toBeUndefined();
    expect(shown(erased)).toEqual(["c1"]);
    // Shown again, the question is empty: its answer was erased, not kept out of sight.
    expect(stepView(definition, run([choose("c1", "B")], erased), FIXED_NOW).answers.d1).toEqual([]);

    const finished = run([advance], erased);
    expect(isAtSubmission(finished.flow)).toBe(true);
    const records = recordsToSubmit(definition, finished.flow);
    expect(records.map((record) => record.id)).toEqual(["p1", "c1"]);
    const payload = buildSubmission({
      definition,
      records,
      user: { id: 1, username: "coordinator@demo.test" },
      startTime: FIXED_NOW,
      completion: FIXED_NOW,
      portalVersion: "test",
      instrumentId: 5,
      browserInfo: "test",
    });
    expect(validateSubmission(definition, payload).ok).toBe(true);
  });

  it("completes the group with the questions shown at the end, not those shown when it opened", () => {
    const session = run(
      [change("d1", [valueEntry("headache")]), change("d2", [valueEntry("since Monday")])],
      onGroup(),
    );
    const withB = run([choose("c1", "B"), choose("b1", "NO"), advance], session);
    expect(isAtSubmission(withB.flow)).toBe(true);
    expect(recordsToSubmit(definition, withB.flow).map((record) => [record.id, record.state])).toEqual([
      ["p1", "ANSWERED"],
      ["c1", "ANSWERED"],
      ["d1", "ANSWERED"],
      ["d2", "ANSWERED"],
      ["b1", "ANSWERED"],
    ]);
  });

  it("a confirmed answer of a question hidden on a later visit asks too, and is erased from the records", () => {
    const done = run(
      [change("d1", [valueEntry("headache")]), change("d2", [valueEntry("since Monday")]), advance],
      onGroup(),
    );
    const back = run([{ type: "back" }], done);
    expect(currentStepId(back.flow)).toBe("g1");
    const asking = run([choose("c1", "A")], back);
    expect(asking.pendingErase?.erases).toEqual(["d1", "d2"]);
    const finished = run([{ type: "erase-hidden" }, advance], asking);
    expect(finished.flow.records.map((record) => record.id)).toEqual(["p1", "c1"]);
    expect(recordsToSubmit(definition, finished.flow).map((record) => record.id)).toEqual(["p1", "c1"]);
  });
});
