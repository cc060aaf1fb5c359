import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Checkbox } from "./checkbox.tsx";

afterEach(cleanup);

function box() {
  return screen.getByRole<HTMLInputElement>("checkbox", { name: "Send reminders" });
}

describe("the checkbox", () => {
  it("is a checkbox named by its label that a click checks and unchecks", () => {
    const onChange = vi.fn();
    render(<Checkbox onChange={onChange}>Send reminders</Checkbox>);
    expect(box().checked).toBe(false);
    fireEvent.click(box());
    expect(box().checked).toBe(true);
    expect(onChange).toHaveBeenLastCalledWith(true);
    expect(document.querySelector(".rac-check")?.hasAttribute("data-selected")).toBe(true);
    expect(document.querySelector(".rac-check__box")?.textContent).toBe("✓");
    fireEvent.click(box());
    expect(box().checked).toBe(false);
    expect(onChange).toHaveBeenLastCalledWith(false);
    expect(document.querySelector(".rac-check__box")?.textContent).toBe("");
  });

  it("is a native checkbox in the tab order, so Space toggles it, and shows keyboard focus", () => {
    render(<Checkbox>Send reminders</Checkbox>);
    // jsdom does not play a browser's Space on a checkbox: the native input is what makes it work.
    expect(box().tagName).toBe("INPUT");
    expect(box().type).toBe("checkbox");
    expect(box().tabIndex).toBe(0);
    act(() => box().focus());
    expect(document.activeElement).toBe(box());
    expect(document.querySelector(".rac-check")?.hasAttribute("data-focused")).toBe(true);
  });

  it("shows the indeterminate state and does not change when disabled", () => {
    const onChange = vi.fn();
    const { rerender } = render(
      <Checkbox isIndeterminate onChange={onChange}>
        Send reminders
      </Checkbox>,
    );
    expect(box().indeterminate).toBe(true);
    expect(document.querySelector(".rac-check__box")?.textContent).toBe("–");
    rerender(
      <Checkbox isDisabled onChange={onChange}>
        Send reminders
      </Checkbox>,
    );
    expect(box().disabled).toBe(true);
    fireEvent.click(screen.getByText("Send reminders"));
    expect(onChange).not.toHaveBeenCalled();
  });
});
