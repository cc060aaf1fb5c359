import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeQuestion, renderQuestion } from "./question-harness.tsx";

afterEach(cleanup);

describe("datetime", () => {
  const question = makeQuestion({ id: "onset", type: "datetime", label: "Onset" });

  it("answers only once both the date and the time are given", async () => {
    const onChange = vi.fn();
    renderQuestion(question, { onChange });
    const group = await screen.findByRole("group", { name: "Onset" });
    // The locale's short date (en-US in the tests), not the browser's own picker.
    const date = within(group).getByRole("textbox", { name: "Date" });
    expect(date.getAttribute("type")).not.toBe("date");
    fireEvent.change(date, { target: { value: "11/22/2026" } });
    expect(onChange).toHaveBeenLastCalledWith([]);
    const time = within(group).getByRole("group", { name: "Time" });
    fireEvent.change(within(time).getByRole("combobox", { name: "Hour" }), { target: { value: "14" } });
    expect(onChange).toHaveBeenLastCalledWith([]);
    fireEvent.change(within(time).getByRole("combobox", { name: "Minute" }), { target: { value: "30" } });
    const value = new Date(2026, 10, 22, 14, 30, 0, 0).toISOString();
    expect(onChange).toHaveBeenLastCalledWith([{ label: "2026-11-22 14:30", value }]);
    fireEvent.change(date, { target: { value: "11/31/2026" } });
    expect(onChange).toHaveBeenLastCalledWith([]);
    fireEvent.change(date, { target: { value: "" } });
    expect(onChange).toHaveBeenLastCalledWith([]);
  });

  it("pre-fills both parts from an answer", async () => {
    const value = new Date(2026, 10, 22, 8, 5).toISOString();
    renderQuestion(question, { answer: [{ label: "", value }] });
    expect(await screen.findByRole("textbox", { name: "Date" })).toHaveProperty("value", "11/22/2026");
    expect(screen.getByRole("combobox", { name: "Hour" })).toHaveProperty("value", "08");
    expect(screen.getByRole("combobox", { name: "Minute" })).toHaveProperty("value", "05");
  });
});

describe("date", () => {
  const question = makeQuestion({ type: "date", label: "Visit date" });

  it("reads the locale's short date and stores midnight Z", async () => {
    const onChange = vi.fn();
    renderQuestion(question, { onChange });
    const input = await screen.findByRole("textbox", { name: "Visit date" });
    expect(input.getAttribute("type")).not.toBe("date");
    expect(screen.getByText("For example 12/31/2025")).toBeTruthy();
    fireEvent.change(input, { target: { value: "11/22/2026" } });
    expect(onChange).toHaveBeenLastCalledWith([{ label: "2026-11-22", value: "2026-11-22T00:00:00.000Z" }]);
  });

  it("marks a text that is not a date in that format, and answers nothing", async () => {
    const onChange = vi.fn();
    renderQuestion(question, { onChange });
    const input = await screen.findByRole("textbox", { name: "Visit date" });
    fireEvent.change(input, { target: { value: "22/11/2026" } });
    expect(onChange).toHaveBeenLastCalledWith([]);
    expect(input.getAttribute("aria-invalid")).toBeNull();
    fireEvent.blur(input);
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByRole("alert").textContent).toBe("Enter a date like 12/31/2025.");
  });

  it("takes digits and the separator only", async () => {
    renderQuestion(question);
    const input = await screen.findByRole("textbox", { name: "Visit date" });
    expect(fireEvent.keyDown(input, { key: "a" })).toBe(false);
    expect(fireEvent.keyDown(input, { key: "-" })).toBe(false);
    expect(fireEvent.keyDown(input, { key: "7" })).toBe(true);
    expect(fireEvent.keyDown(input, { key: "/" })).toBe(true);
    expect(fireEvent.keyDown(input, { key: "Backspace" })).toBe(true);
  });

  it("submits on Enter with a date, or empty when optional; never an invalid date", async () => {
    const onSubmit = vi.fn();
    renderQuestion(question, { onSubmit });
    const input = await screen.findByRole("textbox", { name: "Visit date" });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onSubmit).toHaveBeenCalledTimes(1);
    fireEvent.change(input, { target: { value: "13/1/2026" } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onSubmit).toHaveBeenCalledTimes(1);
    fireEvent.change(input, { target: { value: "1/13/2026" } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onSubmit).toHaveBeenCalledTimes(2);
  });

  it("does not submit an empty required date on Enter", async () => {
    const onSubmit = vi.fn();
    renderQuestion(makeQuestion({ type: "date", label: "Visit date", attributes: { required: true } }), {
      onSubmit,
    });
    fireEvent.keyDown(await screen.findByRole("textbox", { name: "Visit date" }), { key: "Enter" });
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("pre-fills a stored date in the locale's format", async () => {
    renderQuestion(question, { answer: [{ label: "2026-11-22", value: "2026-11-22T00:00:00.000Z" }] });
    expect(await screen.findByRole("textbox", { name: "Visit date" })).toHaveProperty("value", "11/22/2026");
  });
});

describe("time", () => {
  it("uses a 24 hour clock by default and stores the local offset", () => {
    const onChange = vi.fn();
    renderQuestion(makeQuestion({ type: "time", label: "Dose time" }), { onChange });
    const group = screen.getByRole("group", { name: "Dose time" });
    const hour = within(group).getByRole("combobox", { name: "Hour" });
    expect(within(hour).getAllByRole("option")).toHaveLength(25);
    expect(within(group).queryByRole("combobox", { name: "AM or PM" })).toBeNull();
    fireEvent.change(hour, { target: { value: "21" } });
    fireEvent.change(within(group).getByRole("combobox", { name: "Minute" }), { target: { value: "45" } });
    const [entry] = onChange.mock.lastCall?.[0] ?? [];
    expect(entry.label).toBe("21:45");
    expect(entry.value).toMatch(/T21:45:00[+-]\d{2}:\d{2}$/);
  });

  it("uses a 12 hour clock with AM and PM when the definition asks", () => {
    const onChange = vi.fn();
    renderQuestion(makeQuestion({ type: "time", label: "Dose time", attributes: { time_format: "12h" } }), {
      onChange,
    });
    const hour = screen.getByRole("combobox", { name: "Hour" });
    expect(within(hour).getAllByRole("option")).toHaveLength(13);
    fireEvent.change(hour, { target: { value: "12" } });
    fireEvent.change(screen.getByRole("combobox", { name: "Minute" }), { target: { value: "15" } });
    expect(onChange).toHaveBeenLastCalledWith([]);
    fireEvent.change(screen.getByRole("combobox", { name: "AM or PM" }), { target: { value: "AM" } });
    expect(onChange.mock.lastCall?.[0][0].value).toMatch(/T00:15:00[+-]\d{2}:\d{2}$/);
  });
});
