import { cleanup, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { expectVisible, makeQuestion, renderQuestion, TEST_LABEL_ID } from "./question-harness.tsx";

afterEach(cleanup);

describe("question body", () => {
  it("renders the label as a focusable heading with the page's id, and the instructions", () => {
    renderQuestion(
      makeQuestion({ type: "text", label: "Describe the rash", comments: "Include size and colour." }),
    );
    const heading = screen.getByRole("heading", { level: 2, name: "Describe the rash" });
    expect(heading.id).toBe(TEST_LABEL_ID);
    expect(heading.getAttribute("tabindex")).toBe("-1");
    const field = screen.getByRole("textbox", { name: "Describe the rash" });
    const instructions = screen.getByText("Include size and colour.");
    expect(field.getAttribute("aria-describedby")).toContain(instructions.id);
  });

  it("shows only the label of an introduction or a prompt", () => {
    renderQuestion(makeQuestion({ type: "introduction", label: "Welcome to the assessment" }));
    expectVisible(screen.getByRole("heading", { name: "Welcome to the assessment" }));
    expect(screen.queryByRole("textbox")).toBeNull();
    expect(screen.queryByRole("radiogroup")).toBeNull();
  });

  it("shows a submission question like an introduction: its label and comments", () => {
    renderQuestion(makeQuestion({ type: "submission", label: "All done", comments: "Check, then finish." }));
    expectVisible(screen.getByRole("heading", { name: "All done" }));
    expectVisible(screen.getByText("Check, then finish."));
    expect(screen.queryByRole("textbox")).toBeNull();
  });

  it.each(["unknown_widget", "consent_signature"])("renders nothing for %s", (type) => {
    const { container } = renderQuestion(makeQuestion({ type, label: "Not here" }));
    expect(container.innerHTML).toBe("");
  });
});
