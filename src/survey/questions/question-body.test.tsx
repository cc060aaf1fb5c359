import { cleanup, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { makeQuestion, renderQuestion, TEST_LABEL_ID } from "./question-harness.tsx";

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
    expect(screen.getByRole("heading", { name: "Welcome to the assessment" })).toBeDefined();
    expect(screen.queryByRole("textbox")).toBeNull();
    expect(screen.queryByRole("radiogroup")).toBeNull();
  });

  it.each(["unknown_widget", "submission", "consent_signature"])("renders nothing for %s", (type) => {
    const { container } = renderQuestion(makeQuestion({ type, label: "Not here" }));
    expect(container.innerHTML).toBe("");
  });
});
