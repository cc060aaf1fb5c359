import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { expectVisible, makeQuestion, renderQuestion } from "./question-harness.tsx";
import { DESELECT_HIGHLIGHT_MS, SELECT_HIGHLIGHT_MS } from "./timings.ts";

const question = makeQuestion({
  id: "mood",
  type: "select_one",
  label: "How is the participant's mood?",
  choices: {
    low: { label: "Low", score_value: 0 },
    fair: { label: "Fair", score_value: 1, imageSrc: "/fair.png" },
    good: { label: "Good", score_value: 2 },
  },
  choices_order: ["good", "fair", "low"],
});

const card = (name: string) => screen.getByRole("radio", { name }).closest("label");

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("select one", () => {
  it("is a radiogroup named by the question label, choices in choices_order", () => {
    renderQuestion(question);
    const group = screen.getByRole("radiogroup", { name: "How is the participant's mood?" });
    expectVisible(group);
    expect(screen.getAllByRole("radio").map((radio) => radio.getAttribute("value"))).toEqual([
      "good",
      "fair",
      "low",
    ]);
  });

  it("answers with the chosen choice's entry", () => {
    const onChange = vi.fn();
    renderQuestion(question, { onChange });
    fireEvent.click(screen.getByRole("radio", { name: "Fair" }));
    expect(onChange).toHaveBeenLastCalledWith([
      { label: "Fair", value: "fair", choice_id: "fair", score_value: 1 },
    ]);
    expect(screen.getByRole("radio", { name: "Fair" })).toHaveProperty("checked", true);
  });

  it("highlights a selected choice for 300 ms and the one it replaced for 200 ms", () => {
    renderQuestion(question);
    fireEvent.click(screen.getByRole("radio", { name: "Good" }));
    expect(card("Good")?.className).toContain("choice--selecting");
    act(() => {
      vi.advanceTimersByTime(SELECT_HIGHLIGHT_MS - 1);
    });
    expect(card("Good")?.className).toContain("choice--selecting");
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(card("Good")?.className).not.toContain("choice--selecting");
    expect(card("Good")?.className).toContain("choice--selected");

    fireEvent.click(screen.getByRole("radio", { name: "Low" }));
    expect(card("Low")?.className).toContain("choice--selecting");
    expect(card("Good")?.className).toContain("choice--deselecting");
    act(() => {
      vi.advanceTimersByTime(DESELECT_HIGHLIGHT_MS);
    });
    expect(card("Good")?.className).not.toContain("choice--deselecting");
    expect(card("Low")?.className).toContain("choice--selecting");
    act(() => {
      vi.advanceTimersByTime(SELECT_HIGHLIGHT_MS - DESELECT_HIGHLIGHT_MS);
    });
    expect(card("Low")?.className).not.toContain("choice--selecting");
  });

  it("clears the answer when the selected choice is chosen again", () => {
    const onChange = vi.fn();
    renderQuestion(question, { onChange });
    fireEvent.click(screen.getByRole("radio", { name: "Good" }));
    fireEvent.click(screen.getByRole("radio", { name: "Good" }));
    expect(onChange).toHaveBeenLastCalledWith([]);
    expect(card("Good")?.className).toContain("choice--deselecting");
    expect(screen.getByRole("radio", { name: "Good" })).toHaveProperty("checked", false);
  });

  it("submits on selection inside a sibling group, after the change", () => {
    const calls: string[] = [];
    renderQuestion(question, {
      inSiblingGroup: true,
      onChange: () => calls.push("change"),
      onSubmit: () => calls.push("submit"),
    });
    fireEvent.click(screen.getByRole("radio", { name: "Low" }));
    expect(calls).toEqual(["change", "submit"]);
  });

  it("does not submit when the arrow keys move the selection", () => {
    const onSubmit = vi.fn();
    renderQuestion(question, { inSiblingGroup: true, onSubmit });
    const good = screen.getByRole("radio", { name: "Good" });
    fireEvent.keyDown(good, { key: "ArrowDown" });
    fireEvent.click(screen.getByRole("radio", { name: "Fair" }), { detail: 0 });
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("does not submit on its own outside a sibling group", () => {
    const onSubmit = vi.fn();
    renderQuestion(question, { onSubmit });
    fireEvent.click(screen.getByRole("radio", { name: "Low" }));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("shows a pre-filled answer that cannot be changed when read-only", () => {
    const onChange = vi.fn();
    renderQuestion(question, {
      readOnly: true,
      onChange,
      answer: [{ label: "Fair", value: "fair", choice_id: "fair", score_value: 1 }],
    });
    expect(screen.getByRole("radio", { name: "Fair" })).toHaveProperty("checked", true);
    expect(screen.getByRole("radio", { name: "Good" })).toHaveProperty("disabled", true);
    fireEvent.click(screen.getByRole("radio", { name: "Good" }));
    expect(onChange).not.toHaveBeenCalled();
  });
});
