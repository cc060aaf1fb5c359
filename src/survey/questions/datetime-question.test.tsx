import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeQuestion, renderQuestion } from "./question-harness.tsx";

afterEach(cleanup);

describe("datetime", () => {
  const question = makeQuestion({ id: "onset", type: "datetime", label: "Onset" });

  it("answers only once both the date and the time are given", () => {
    const onChange = vi.fn();
    renderQuestion(question, { onChange });
    const group = screen.getByRole("group", { name: "Onset" });
    fireEvent.change(within(group).getByLabelText("Date"), { target: { value: "2026-11-22" } });
    expect(onChange).toHaveBeenLastCalledWith([]);
    const time = within(group).getByRole("group", { name: "Time" });
    fireEvent.change(within(time).getByRole("combobox", { name: "Hour" }), { target: { value: "14" } });
    expect(onChange).toHaveBeenLastCalledWith([]);
    fireEvent.change(within(time).getByRole("combobox", { name: "Minute" }), { target: { value: "30" } });
    const value = new Date(2026, 10, 22, 14, 30, 0, 0).toISOString();
    expect(onChange).toHaveBeenLastCalledWith([{ label: "2026-11-22 14:30", value }]);
    fireEvent.change(within(group).getByLabelText("Date"), { target: { value: "" } });
    expect(onChange).toHaveBeenLastCalledWith([]);
  });

  it("pre-fills both parts from an answer", () => {
    const value = new Date(2026, 10, 22, 8, 5).toISOString();
    renderQuestion(question, { answer: [{ label: "", value }] });
    expect(screen.getByLabelText("Date")).toHaveProperty("value", "2026-11-22");
    expect(screen.getByRole("combobox", { name: "Hour" })).toHaveProperty("value", "08");
    expect(screen.getByRole("combobox", { name: "Minute" })).toHaveProperty("value", "05");
  });
});

describe("date", () => {
  it("stores midnight Z", () => {
    const onChange = vi.fn();
    renderQuestion(makeQuestion({ type: "date", label: "Visit date" }), { onChange });
    fireEvent.change(screen.getByLabelText("Visit date"), { target: { value: "2026-11-22" } });
    expect(onChange).toHaveBeenLastCalledWith([{ label: "2026-11-22", value: "2026-11-22T00:00:00.000Z" }]);
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
