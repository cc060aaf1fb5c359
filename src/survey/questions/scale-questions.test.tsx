import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { expectVisible, makeQuestion, renderQuestion } from "./question-harness.tsx";

afterEach(cleanup);

describe("numeric rating scale", () => {
  const question = makeQuestion({
    id: "pain",
    type: "numeric_rating_scale",
    label: "Pain now",
    attributes: { min_label: "No pain", max_label: "Worst pain imaginable" },
  });

  it("offers 0 to 10 by default as a radiogroup described by its end labels", () => {
    renderQuestion(question);
    const group = screen.getByRole("radiogroup", { name: "Pain now" });
    const points = within(group).getAllByRole("radio");
    expect(points.map((radio) => radio.getAttribute("value"))).toEqual(
      Array.from({ length: 11 }, (_, index) => String(index)),
    );
    const description = document.getElementById(group.getAttribute("aria-describedby") ?? "");
    expect(description?.textContent).toContain("No pain");
    expect(description?.textContent).toContain("Worst pain imaginable");
  });

  it("answers with the number chosen, 0 included", () => {
    const onChange = vi.fn();
    renderQuestion(question, { onChange });
    fireEvent.click(screen.getByRole("radio", { name: "0" }));
    expect(onChange).toHaveBeenLastCalledWith([{ label: "0", value: 0 }]);
    fireEvent.click(screen.getByRole("radio", { name: "7" }));
    expect(onChange).toHaveBeenLastCalledWith([{ label: "7", value: 7 }]);
  });

  it("follows min and max", () => {
    renderQuestion(
      makeQuestion({ type: "numeric_rating_scale", label: "Effort", attributes: { min: 1, max: 5 } }),
    );
    expect(screen.getAllByRole("radio").map((radio) => radio.getAttribute("value"))).toEqual([
      "1",
      "2",
      "3",
      "4",
      "5",
    ]);
  });
});

const agreement = {
  sd: { label: "Strongly disagree", score_value: 1 },
  d: { label: "Disagree", score_value: 2 },
  n: { label: "Neither", score_value: 3 },
  a: { label: "Agree", score_value: 4 },
  sa: { label: "Strongly agree", score_value: 5 },
};

describe("likert", () => {
  it("shows the label of every point of a 5-point scale", () => {
    const onChange = vi.fn();
    renderQuestion(
      makeQuestion({
        id: "l5",
        type: "likert",
        label: "I slept well",
        choices: agreement,
        choices_order: ["sd", "d", "n", "a", "sa"],
      }),
      { onChange },
    );
    const group = screen.getByRole("radiogroup", { name: "I slept well" });
    for (const { label } of Object.values(agreement)) {
      const text = within(group).getByText(label);
      expect(text.className).not.toContain("visually-hidden");
    }
    fireEvent.click(screen.getByRole("radio", { name: "Agree" }));
    expect(onChange).toHaveBeenLastCalledWith([
      { label: "Agree", value: "a", choice_id: "a", score_value: 4 },
    ]);
  });

  it("shows only the end labels of a 7-point scale, every point still named", () => {
    const choices = Object.fromEntries(
      Array.from({ length: 7 }, (_, index) => [
        `p${index + 1}`,
        { label: `Point ${index + 1}`, score_value: index + 1 },
      ]),
    );
    renderQuestion(makeQuestion({ type: "likert", label: "Energy", choices }));
    expect(screen.getAllByRole("radio")).toHaveLength(7);
    expect(screen.getByText("Point 1").className).not.toContain("visually-hidden");
    expect(screen.getByText("Point 4").className).toContain("visually-hidden");
    expect(screen.getByText("Point 7").className).not.toContain("visually-hidden");
    expectVisible(screen.getByRole("radio", { name: "Point 4" }));
  });
});

describe("select multiple", () => {
  it("answers the checked choices in choices_order", () => {
    const onChange = vi.fn();
    renderQuestion(
      makeQuestion({
        type: "select_multiple",
        label: "Symptoms",
        choices: { cough: { label: "Cough" }, fever: { label: "Fever", score_value: 2 } },
        choices_order: ["fever", "cough"],
      }),
      { onChange },
    );
    const group = screen.getByRole("group", { name: "Symptoms" });
    fireEvent.click(within(group).getByRole("checkbox", { name: "Cough" }));
    fireEvent.click(within(group).getByRole("checkbox", { name: "Fever" }));
    expect(onChange).toHaveBeenLastCalledWith([
      { label: "Fever", value: "fever", choice_id: "fever", score_value: 2 },
      { label: "Cough", value: "cough", choice_id: "cough" },
    ]);
    fireEvent.click(within(group).getByRole("checkbox", { name: "Fever" }));
    expect(onChange).toHaveBeenLastCalledWith([{ label: "Cough", value: "cough", choice_id: "cough" }]);
  });
});
