import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { expectVisible, makeQuestion, renderQuestion } from "./question-harness.tsx";

afterEach(cleanup);

describe("integer", () => {
  const question = makeQuestion({
    id: "steps",
    type: "integer",
    label: "Steps climbed",
    attributes: { min: 0, max: 50 },
  });

  it("rounds what is typed to a whole number, and shows it on leaving the field", () => {
    const onChange = vi.fn();
    renderQuestion(question, { onChange });
    const field = screen.getByRole("spinbutton", { name: "Steps climbed" });
    expect(field.getAttribute("step")).toBe("1");
    fireEvent.change(field, { target: { value: "12.6" } });
    expect(onChange).toHaveBeenLastCalledWith([{ label: "13", value: 13 }]);
    fireEvent.blur(field);
    expect(field).toHaveProperty("value", "13");
  });

  it("counts 0 as an answer", () => {
    const onChange = vi.fn();
    renderQuestion(question, { onChange });
    fireEvent.change(screen.getByRole("spinbutton", { name: "Steps climbed" }), { target: { value: "0" } });
    expect(onChange).toHaveBeenLastCalledWith([{ label: "0", value: 0 }]);
  });

  it("answers nothing outside min and max, and says why", () => {
    const onChange = vi.fn();
    renderQuestion(question, { onChange });
    const field = screen.getByRole("spinbutton", { name: "Steps climbed" });
    fireEvent.change(field, { target: { value: "51" } });
    expect(onChange).toHaveBeenLastCalledWith([]);
    expect(field.getAttribute("aria-invalid")).toBe("true");
    expectVisible(screen.getByText("Enter a number from 0 to 50."));
    fireEvent.change(field, { target: { value: "" } });
    expect(onChange).toHaveBeenLastCalledWith([]);
    expect(screen.queryByText("Enter a number from 0 to 50.")).toBeNull();
  });
});

describe("decimal", () => {
  const question = makeQuestion({
    id: "temp",
    type: "decimal",
    label: "Temperature",
    attributes: { unit: "°C", min: 30 },
  });

  it("steps by 0.1, rounds to one decimal and shows its unit", () => {
    const onChange = vi.fn();
    renderQuestion(question, { onChange, answer: [{ label: "36.6", value: 36.6 }] });
    const field = screen.getByRole("spinbutton", { name: "Temperature" });
    expect(field).toHaveProperty("value", "36.6");
    expect(field.getAttribute("step")).toBe("0.1");
    expect(field.getAttribute("inputmode")).toBe("decimal");
    expectVisible(screen.getByText("°C"));
    fireEvent.change(field, { target: { value: "37.25" } });
    expect(onChange).toHaveBeenLastCalledWith([{ label: "37.3", value: 37.3 }]);
    fireEvent.change(field, { target: { value: "12" } });
    expectVisible(screen.getByText("Enter a number of at least 30."));
  });
});
