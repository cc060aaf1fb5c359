import { describe, expect, it } from "vitest";
import type { AnswerEntry } from "../contracts/survey-answers.ts";
import { SUBMIT_ID, type SurveyDefinition } from "../contracts/survey-definition.ts";
import {
  canAdvance,
  completeStep,
  currentStepId,
  footerAction,
  goBack,
  isAtSubmission,
  movesOnAfterSelection,
  nextStepId,
  progressOf,
  recordsToSubmit,
  startFlow,
  stepById,
  stepsOf,
  visibleQuestions,
  type FlowState,
} from "./flow.ts";
import { buildSubmission } from "./submission.ts";
import { choiceEntry, FIXED_NOW, questionIn, validDefinition, valueEntry } from "./test-fixtures.ts";
import { validateSubmission } from "./validate-submission.ts";

const flowJson = {
  id: "flow",
  type: "CLINRO",
  version: 1,
  order: ["intro", "colour", "red_note", "age", "daily_feeling", "daily_comment", "last"],
  questions: {
    intro: { id: "intro", type: "introduction", label: "Welcome" },
    colour: {
      id: "colour",
      type: "select_one",
      label: "Colour",
      attributes: { required: true },
      choices: { red: { label: "Red", score_value: 1 }, green: { label: "Green", score_value: 2 } },
    },
    red_note: {
      id: "red_note",
      type: "text",
      label: "Why red?",
      logic: { show_if: [{ comparator: "is_selected", question: "colour", value: "red" }] },
    },
    age: { id: "age", type: "integer", label: "Age" },
    daily_feeling: {
      id: "daily_feeling",
      type: "select_one",
      label: "Today",
      sibling_id: "daily",
      choices: { good: { label: "Good", score_value: 1 }, bad: { label: "Bad", score_value: 0 } },
    },
    daily_comment: {
      id: "daily_comment",
      type: "text",
      label: "Comment",
      sibling_id: "daily",
      logic: { show_if: [{ comparator: ">", question: "age", value: 17 }] },
    },
    last: {
      id: "last",
      type: "text",
      label: "Anything else?",
      logic: { show_if: [{ comparator: "is_answered", question: "age" }] },
    },
  },
  siblings: { daily: ["daily_feeling", "daily_comment"] },
  scores: [{ id: "colour_score", name: "Colour", formula: "{colour}" }],
};

const definition = validDefinition(flowJson);
const q = (id: string) => questionIn(definition, id);
const red = [choiceEntry(q("colour"), "red")];
const green = [choiceEntry(q("colour"), "green")];

/** Walks the flow: each step's answers in turn, starting from the introduction. */
function walk(
  steps: readonly Readonly<Record<string, readonly AnswerEntry[]>>[],
  from: FlowState = startFlow(definition, FIXED_NOW),
  on: SurveyDefinition = definition,
) {
  return steps.reduce((state, answers) => completeStep(on, state, answers, FIXED_NOW), from);
}

const step = (id: string) => {
  const found = stepById(definition, id);
  if (!found) throw new Error(`no step ${id}`);
  return found;
};

describe("moving through the survey", () => {
  it("starts at the first question, noting when the clinician started", () => {
    const state = startFlow(definition, FIXED_NOW);
    expect(currentStepId(state)).toBe("intro");
    expect(state.startedAt).toBe("2026-11-22T10:00:00.000Z");
    expect(state.records).toEqual([]);
  });

  it("shows the next question after an answer when it has no logic", () => {
    expect(currentStepId(walk([{}]))).toBe("colour");
  });

  it("shows the next question when its show-if logic holds", () => {
    expect(currentStepId(walk([{}, { colour: red }]))).toBe("red_note");
  });

  it("keeps advancing past questions whose show-if logic is false", () => {
    expect(currentStepId(walk([{}, { colour: green }]))).toBe("age");
  });

  it("shows a sibling group as one step, with the siblings whose logic holds", () => {
    const adult = walk([{}, { colour: green }, { age: [valueEntry(30)] }]);
    expect(currentStepId(adult)).toBe("daily");
    expect(visibleQuestions(definition, step("daily"), adult.records).map((question) => question.id)).toEqual(
      ["daily_feeling", "daily_comment"],
    );
    const child = walk([{}, { colour: green }, { age: [valueEntry(10)] }]);
    expect(visibleQuestions(definition, step("daily"), child.records).map((question) => question.id)).toEqual(
      ["daily_feeling"],
    );
  });

  it("groups the siblings into one step where the first of them is", () => {
    expect(stepsOf(definition).map((each) => each.id)).toEqual([
      "intro",
      "colour",
      "red_note",
      "age",
      "daily",
      "last",
    ]);
    expect(step("daily").questionIds).toEqual(["daily_feeling", "daily_comment"]);
  });

  it("reaches the submission step after the last question", () => {
    const state = walk([
      {},
      { colour: green },
      { age: [valueEntry(30)] },
      { daily_feeling: [] },
      { last: [] },
    ]);
    expect(currentStepId(state)).toBe(SUBMIT_ID);
    expect(isAtSubmission(state)).toBe(true);
  });

  it("reaches the submission step when no later question qualifies", () => {
    const state = walk([{}, { colour: green }, { age: [] }, { daily_feeling: [] }]);
    expect(currentStepId(state)).toBe(SUBMIT_ID);
    expect(nextStepId(definition, state.records, "daily")).toBe(SUBMIT_ID);
  });

  it("counts progress as step n of the steps plus the submission step", () => {
    expect(progressOf(definition, startFlow(definition, FIXED_NOW))).toEqual({ current: 1, total: 7 });
    expect(progressOf(definition, walk([{}, { colour: green }]))).toEqual({ current: 4, total: 7 });
    expect(progressOf(definition, walk([{}, { colour: green }, { age: [] }, { daily_feeling: [] }]))).toEqual(
      {
        current: 7,
        total: 7,
      },
    );
  });
});

describe("the records the flow keeps", () => {
  it("keeps one record per completed question: REQUIRED for the introduction, ANSWERED or SKIPPED", () => {
    const state = walk([{}, { colour: red }, { red_note: [valueEntry("  ")] }, { age: [valueEntry(0)] }]);
    expect(state.records.map((record) => [record.id, record.state])).toEqual([
      ["intro", "REQUIRED"],
      ["colour", "ANSWERED"],
      ["red_note", "SKIPPED"],
      ["age", "ANSWERED"],
    ]);
    expect(state.records.find((record) => record.id === "red_note")).not.toHaveProperty("time_answered");
    expect(state.records.find((record) => record.id === "age")?.time_answered).toBe(
      "2026-11-22T10:00:00.000Z",
    );
  });

  it("keeps a record for each sibling, naming its group", () => {
    const state = walk([
      {},
      { colour: green },
      { age: [valueEntry(30)] },
      { daily_feeling: [choiceEntry(q("daily_feeling"), "good")], daily_comment: [valueEntry("ok")] },
    ]);
    expect(
      state.records
        .filter((record) => record.sibling_id === "daily")
        .map((record) => [record.id, record.state]),
    ).toEqual([
      ["daily_feeling", "ANSWERED"],
      ["daily_comment", "ANSWERED"],
    ]);
  });

  it("replaces the record of a question completed again instead of appending one", () => {
    const first = walk([{}, { colour: green }, { age: [valueEntry(30)] }]);
    const again = walk([{ age: [valueEntry(40)] }], goBack(first));
    expect(again.records.filter((record) => record.id === "age")).toHaveLength(1);
    expect(again.records.find((record) => record.id === "age")?.answer[0]?.value).toBe(40);
    expect(again.records.map((record) => record.id)).toEqual(["intro", "colour", "age"]);
  });
});

describe("going back and changing answers", () => {
  const atDaily = walk([{}, { colour: red }, { red_note: [valueEntry("warm")] }, { age: [valueEntry(30)] }]);

  it("makes the previous step current and truncates the shown list at it", () => {
    const back = goBack(atDaily);
    expect(currentStepId(back)).toBe("age");
    expect(back.shown).toEqual(["intro", "colour", "red_note", "age"]);
    expect(back.records).toEqual(atDaily.records);
  });

  it("stays at the first step when there is nothing to go back to", () => {
    const start = startFlow(definition, FIXED_NOW);
    expect(goBack(start)).toEqual(start);
  });

  it("drops the records of later questions when a required answer changes", () => {
    const atColour = goBack(goBack(goBack(atDaily)));
    expect(currentStepId(atColour)).toBe("colour");
    const changed = completeStep(definition, atColour, { colour: green }, FIXED_NOW);
    expect(changed.records.map((record) => record.id)).toEqual(["intro", "colour"]);
    expect(changed.shown).toEqual(["intro", "colour", "age"]);
  });

  it("keeps the later records when a required answer is completed unchanged", () => {
    const atColour = goBack(goBack(goBack(atDaily)));
    const same = completeStep(definition, atColour, { colour: red }, FIXED_NOW);
    expect(same.records.map((record) => record.id)).toEqual(["intro", "colour", "red_note", "age"]);
    expect(currentStepId(same)).toBe("red_note");
  });

  it("keeps the later records when an optional answer changes", () => {
    const atNote = goBack(goBack(atDaily));
    const changed = completeStep(definition, atNote, { red_note: [valueEntry("hot")] }, FIXED_NOW);
    expect(changed.records.map((record) => record.id)).toEqual(["intro", "colour", "red_note", "age"]);
  });

  it("does not submit the answer of a question a changed optional answer now hides", () => {
    const optionalColour = validDefinition({
      ...flowJson,
      questions: {
        ...flowJson.questions,
        colour: { ...flowJson.questions.colour, attributes: { required: false } },
      },
    });
    const start = startFlow(optionalColour, FIXED_NOW);
    const atAge = walk([{}, { colour: red }, { red_note: [valueEntry("warm")] }], start, optionalColour);
    const changed = walk([{ colour: green }], goBack(goBack(atAge)), optionalColour);
    expect(changed.records.map((record) => record.id)).toContain("red_note");
    expect(recordsToSubmit(optionalColour, changed).map((record) => record.id)).toEqual(["intro", "colour"]);
  });
});

describe("when Next may be used, and what the footer says", () => {
  it("holds a required question until it is answered, accepting 0", () => {
    const ageRequired = validDefinition({
      ...flowJson,
      questions: {
        ...flowJson.questions,
        age: { ...flowJson.questions.age, attributes: { required: true } },
      },
    });
    const ageStep = stepById(ageRequired, "age")!;
    expect(canAdvance(ageRequired, ageStep, [], {})).toBe(false);
    expect(canAdvance(ageRequired, ageStep, [], { age: [valueEntry(0)] })).toBe(true);
    expect(canAdvance(definition, step("colour"), [], {})).toBe(false);
    expect(canAdvance(definition, step("colour"), [], { colour: red })).toBe(true);
  });

  it("lets an optional question move on empty", () => {
    expect(canAdvance(definition, step("age"), [], {})).toBe(true);
  });

  it("never holds the flow on a required question of a type the portal cannot show", () => {
    const unknown = validDefinition({
      ...flowJson,
      questions: {
        ...flowJson.questions,
        age: { id: "age", type: "colour_wheel", attributes: { required: true } },
      },
    });
    expect(canAdvance(unknown, stepById(unknown, "age")!, [], {})).toBe(true);
  });

  it.each(["prompt", "pdf", "introduction"])(
    "never holds the flow on a required %s, which holds no answer",
    (type) => {
      const valueless = validDefinition({
        ...flowJson,
        questions: {
          ...flowJson.questions,
          age: { id: "age", type, label: "Read this", attributes: { required: true } },
        },
      });
      const ageStep = stepById(valueless, "age")!;
      expect(canAdvance(valueless, ageStep, [], {})).toBe(true);
      expect(footerAction(valueless, ageStep, [], {})).toBe("next");
    },
  );

  it.each([
    ["Next for a required question, even empty", "colour", {}, "next"],
    ["Skip for an optional question left empty", "age", {}, "skip"],
    ["Next for an optional question with a value", "age", { age: [valueEntry(0)] }, "next"],
  ] as const)("shows %s", (_name, stepId, answers, action) => {
    expect(footerAction(definition, step(stepId), [], answers)).toBe(action);
  });

  it("shows Skip for a sibling group only when a sibling is unanswered and none is required", () => {
    const adult = walk([{}, { colour: green }, { age: [valueEntry(30)] }]).records;
    const good = [choiceEntry(q("daily_feeling"), "good")];
    expect(footerAction(definition, step("daily"), adult, { daily_feeling: good })).toBe("skip");
    expect(
      footerAction(definition, step("daily"), adult, {
        daily_feeling: good,
        daily_comment: [valueEntry("ok")],
      }),
    ).toBe("next");
    const requiredSibling = validDefinition({
      ...flowJson,
      questions: {
        ...flowJson.questions,
        daily_feeling: { ...flowJson.questions.daily_feeling, attributes: { required: true } },
      },
    });
    expect(footerAction(requiredSibling, stepById(requiredSibling, "daily")!, adult, {})).toBe("next");
  });
});

describe("what the flow submits", () => {
  it("submits the records of the path taken, in order, which the server accepts", () => {
    const state = walk([
      {},
      { colour: red },
      { red_note: [valueEntry("warm")] },
      { age: [valueEntry(30)] },
      { daily_feeling: [choiceEntry(q("daily_feeling"), "bad")], daily_comment: [] },
      { last: [valueEntry("no")] },
    ]);
    const records = recordsToSubmit(definition, state);
    expect(records.map((record) => record.id)).toEqual([
      "intro",
      "colour",
      "red_note",
      "age",
      "daily_feeling",
      "daily_comment",
      "last",
    ]);
    const payload = buildSubmission({
      definition,
      records,
      user: { id: 31, username: "coordinator@demo.test" },
      startTime: state.startedAt,
      completion: FIXED_NOW,
      portalVersion: "3.75.1",
      instrumentId: 5,
      browserInfo: "test",
    });
    const checked = validateSubmission(definition, payload);
    expect(checked.ok ? [] : checked.problems).toEqual([]);
    expect(checked.ok && checked.scores[0]?.final_value).toBe(1);
  });
});

describe("a selection in a sibling group (spec 02 §4, 'Siblings auto-submit on selection')", () => {
  const choices = { a: { label: "A", score_value: 1 }, b: { label: "B", score_value: 2 } };
  /** Every sibling type spec 02 §2 lists, with an answer each. */
  const siblingTypes: [string, Record<string, unknown>, AnswerEntry[]][] = [
    [
      "matrix",
      { choices, questions: { r1: { id: "r1", label: "Row 1" }, r2: { id: "r2", label: "Row 2" } } },
      [
        { label: "A", value: "a", question: "r1" },
        { label: "B", value: "b", question: "r2" },
      ],
    ],
    ["numeric_rating_scale", { attributes: { min: 0, max: 10 } }, [valueEntry(0)]],
    ["scribble", {}, [{ label: "drawing", value: "scribble_1.png" }]],
    ["select_multiple", { choices }, [{ label: "A", value: "a", choice_id: "a", score_value: 1 }]],
    ["select_one", { choices }, [{ label: "B", value: "b", choice_id: "b", score_value: 2 }]],
    ["text", {}, [valueEntry("fine")]],
    ["datetime", {}, [valueEntry("2026-11-22T09:30")]],
  ];
  const groupOf = (type: string, extra: Record<string, unknown>) =>
    validDefinition({
      id: "group",
      type: "CLINRO",
      version: 1,
      order: ["pick", "other"],
      questions: {
        pick: { id: "pick", type: "select_one", label: "Pick", sibling_id: "g", choices },
        other: { id: "other", type, label: "Other", sibling_id: "g", ...extra },
      },
      siblings: { g: ["pick", "other"] },
    });
  const picked: AnswerEntry[] = [{ label: "A", value: "a", choice_id: "a", score_value: 1 }];

  it.each(siblingTypes)(
    "waits for an unanswered %s sibling, and moves on once it is answered",
    (type, extra, answer) => {
      const group = groupOf(type, extra);
      const groupStep = stepById(group, "g")!;
      expect(movesOnAfterSelection(group, groupStep, [], { pick: picked })).toBe(false);
      expect(movesOnAfterSelection(group, groupStep, [], { pick: picked, other: answer })).toBe(true);
      // Next completes the group with both answers: none is submitted empty.
      const done = completeStep(
        group,
        startFlow(group, FIXED_NOW),
        { pick: picked, other: answer },
        FIXED_NOW,
      );
      expect(isAtSubmission(done)).toBe(true);
      expect(done.records.map((record) => [record.id, record.state])).toEqual([
        ["pick", "ANSWERED"],
        ["other", "ANSWERED"],
      ]);
    },
  );

  it("a hidden sibling does not hold the group; a single question's step moves on when it may", () => {
    expect(movesOnAfterSelection(definition, step("daily"), [], { daily_feeling: picked })).toBe(true);
    expect(movesOnAfterSelection(definition, step("colour"), [], { colour: red })).toBe(true);
    expect(movesOnAfterSelection(definition, step("colour"), [], {})).toBe(false);
  });
});
