import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { expectVisible, makeQuestion, renderQuestion } from "./question-harness.tsx";

afterEach(cleanup);

const question = makeQuestion({
  id: "vitals",
  type: "multiple_field",
  label: "Vital signs",
  questions: {
    site: { id: "site", label: "Measurement site", type: "text", attributes: { required: false } },
    pulse: {
      id: "pulse",
      label: "Pulse",
      type: "integer",
      attributes: { required: false, min: 20, max: 250 },
    },
    temp: { id: "temp", label: "Temperature", type: "decimal", attributes: { required: false, unit: "°C" } },
  },
  questions_order: ["site", "pulse", "temp"],
});

describe("multiple field", () => {
  it("labels every field", () => {
    renderQuestion(question);
    expectVisible(screen.getByRole("textbox", { name: "Measurement site" }));
    expectVisible(screen.getByRole("spinbutton", { name: "Pulse" }));
    expectVisible(screen.getByRole("spinbutton", { name: "Temperature" }));
  });

  it("answers only once every field has a value, one entry per field", () => {
    const onChange = vi.fn();
    renderQuestion(question, { onChange });
    fireEvent.change(screen.getByRole("textbox", { name: "Measurement site" }), {
      target: { value: "Wrist" },
    });
    expect(onChange).toHaveBeenLastCalledWith([]);
    fireEvent.change(screen.getByRole("spinbutton", { name: "Pulse" }), { target: { value: "72.4" } });
    expect(onChange).toHaveBeenLastCalledWith([]);
    fireEvent.change(screen.getByRole("spinbutton", { name: "Temperature" }), { target: { value: "36.65" } });
    expect(onChange).toHaveBeenLastCalledWith([
      { label: "Wrist", value: "Wrist", question: "site" },
      { label: "72", value: 72, question: "pulse" },
      { label: "36.7", value: 36.7, question: "temp" },
    ]);
  });

  it("answers nothing while a number is outside its bounds", () => {
    const onChange = vi.fn();
    renderQuestion(question, {
      onChange,
      answer: [
        { label: "Wrist", value: "Wrist", question: "site" },
        { label: "72", value: 72, question: "pulse" },
        { label: "36.7", value: 36.7, question: "temp" },
      ],
    });
    expect(screen.getByRole("spinbutton", { name: "Pulse" })).toHaveProperty("value", "72");
    fireEvent.change(screen.getByRole("spinbutton", { name: "Pulse" }), { target: { value: "300" } });
    expect(onChange).toHaveBeenLastCalledWith([]);
    expectVisible(screen.getByText("Enter a number from 20 to 250."));
  });
});
