import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { expectVisible, makeQuestion, renderQuestion } from "./question-harness.tsx";

afterEach(cleanup);

const question = (required: boolean) =>
  makeQuestion({ id: "notes", type: "text", label: "Notes", attributes: { required } });

describe("text", () => {
  it("answers with the text and counts it against 140", () => {
    const onChange = vi.fn();
    renderQuestion(question(false), { onChange });
    const field = screen.getByRole("textbox", { name: "Notes" });
    fireEvent.change(field, { target: { value: "Hello" } });
    expect(onChange).toHaveBeenLastCalledWith([{ label: "Hello", value: "Hello" }]);
    expectVisible(screen.getByText("5 / 140"));
    expect(field.getAttribute("maxlength")).toBe("140");
  });

  it("describes the field with the counter instead of announcing every keystroke", () => {
    renderQuestion(question(false));
    const field = screen.getByRole("textbox", { name: "Notes" });
    const counter = screen.getByText("0 / 140");
    expect(field.getAttribute("aria-describedby")).toContain(counter.id);
    expect(counter.getAttribute("aria-live")).toBeNull();
  });

  it("keeps at most 140 characters", () => {
    const onChange = vi.fn();
    renderQuestion(question(false), { onChange });
    fireEvent.change(screen.getByRole("textbox", { name: "Notes" }), { target: { value: "x".repeat(200) } });
    expect(onChange.mock.lastCall?.[0]).toEqual([{ label: "x".repeat(140), value: "x".repeat(140) }]);
    expectVisible(screen.getByText("140 / 140"));
    expectVisible(screen.getByText("Character limit of 140 reached."));
  });

  it("announces politely when 20 characters are left", () => {
    renderQuestion(question(false));
    fireEvent.change(screen.getByRole("textbox", { name: "Notes" }), { target: { value: "x".repeat(125) } });
    const live = screen.getByText("20 characters left.");
    expect(live.getAttribute("aria-live")).toBe("polite");
  });

  it("answers nothing for blank text", () => {
    const onChange = vi.fn();
    renderQuestion(question(false), { onChange });
    fireEvent.change(screen.getByRole("textbox", { name: "Notes" }), { target: { value: "   " } });
    expect(onChange).toHaveBeenLastCalledWith([]);
  });

  it("submits on Enter when optional, even empty", () => {
    const onSubmit = vi.fn();
    renderQuestion(question(false), { onSubmit });
    fireEvent.keyDown(screen.getByRole("textbox", { name: "Notes" }), { key: "Enter" });
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it("submits on Enter when required only once it holds text", () => {
    const onSubmit = vi.fn();
    renderQuestion(question(true), { onSubmit });
    const field = screen.getByRole("textbox", { name: "Notes" });
    fireEvent.keyDown(field, { key: "Enter" });
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(field, { target: { value: "Stable" } });
    fireEvent.keyDown(field, { key: "Enter" });
    expect(onSubmit).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(field, { key: "Enter", shiftKey: true });
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it("pre-fills an existing answer, disabled when read-only", () => {
    renderQuestion(question(true), { readOnly: true, answer: [{ label: "Signed", value: "Signed" }] });
    const field = screen.getByRole("textbox", { name: "Notes" });
    expect(field).toHaveProperty("value", "Signed");
    expect(field).toHaveProperty("disabled", true);
    expectVisible(screen.getByText("6 / 140"));
  });
});
