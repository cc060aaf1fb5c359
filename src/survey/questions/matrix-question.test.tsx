import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { expectVisible, makeQuestion, renderQuestion } from "./question-harness.tsx";

afterEach(cleanup);

const question = makeQuestion({
  id: "adl",
  type: "matrix",
  label: "Daily activities",
  choices: {
    none: { label: "No difficulty", score_value: 0 },
    some: { label: "Some difficulty", score_value: 1 },
    unable: { label: "Unable", score_value: 2 },
  },
  choices_order: ["none", "some", "unable"],
  questions: {
    dress: { id: "dress", label: "Dressing", attributes: { required: false } },
    walk: { id: "walk", label: "Walking", attributes: { required: false } },
  },
  questions_order: ["walk", "dress"],
});

describe("matrix", () => {
  it("makes each row a radiogroup named by its row label, in questions_order", () => {
    renderQuestion(question);
    const rows = screen.getAllByRole("radiogroup");
    expect(rows.map((row) => row.textContent?.split("No difficulty")[0])).toEqual(["Walking", "Dressing"]);
    const walking = screen.getByRole("radiogroup", { name: "Walking" });
    expect(
      within(walking)
        .getAllByRole("radio")
        .map((radio) => radio.getAttribute("value")),
    ).toEqual(["none", "some", "unable"]);
    expectVisible(within(walking).getByRole("radio", { name: "Unable" }));
  });

  it("answers one entry per answered row, with the row id, in row order", () => {
    const onChange = vi.fn();
    renderQuestion(question, { onChange });
    const dressing = screen.getByRole("radiogroup", { name: "Dressing" });
    fireEvent.click(within(dressing).getByRole("radio", { name: "Some difficulty" }));
    expect(onChange).toHaveBeenLastCalledWith([
      { label: "Some difficulty", value: "some", choice_id: "some", score_value: 1, question: "dress" },
    ]);
    const walking = screen.getByRole("radiogroup", { name: "Walking" });
    fireEvent.click(within(walking).getByRole("radio", { name: "Unable" }));
    expect(onChange).toHaveBeenLastCalledWith([
      { label: "Unable", value: "unable", choice_id: "unable", score_value: 2, question: "walk" },
      { label: "Some difficulty", value: "some", choice_id: "some", score_value: 1, question: "dress" },
    ]);
    fireEvent.click(within(walking).getByRole("radio", { name: "No difficulty" }));
    expect(onChange.mock.lastCall?.[0]).toHaveLength(2);
    expect(onChange.mock.lastCall?.[0][0]).toMatchObject({ question: "walk", value: "none" });
  });

  it("gives the answer columns the width of its choice count (3 choices: 50 %)", () => {
    renderQuestion(question);
    const matrix = screen.getByRole("group", { name: "Daily activities" });
    expect(matrix.style.getPropertyValue("--matrix-answer-width")).toBe("50%");
  });
});
