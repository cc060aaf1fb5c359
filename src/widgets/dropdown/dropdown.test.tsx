import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Dropdown } from "./dropdown.tsx";

beforeEach(() => {
  // jsdom has no CSS.escape, which React Aria's popover reads a meta tag with.
  vi.stubGlobal("CSS", { escape: (text: string) => text.replace(/["\\]/g, "\\$&") });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const options = [
  { value: "mdd", label: "Depression study" },
  { value: "gad", label: "Anxiety study" },
];

function Harness({ onChange }: { onChange: (value: string) => void }) {
  const [value, setValue] = useState<string | null>(null);
  return (
    <>
      <p>Outside</p>
      <Dropdown
        label="Study"
        options={options}
        value={value}
        placeholder="Choose a study"
        onChange={(next) => {
          onChange(next);
          setValue(next);
        }}
      />
    </>
  );
}

/** A press outside, as a pointer makes it: down then up on another element. */
function pressOutside() {
  const outside = screen.getByText("Outside");
  act(() => {
    fireEvent.pointerDown(outside, { button: 0, pointerId: 1, pointerType: "mouse" });
    fireEvent.mouseDown(outside, { button: 0 });
    fireEvent.pointerUp(outside, { button: 0, pointerId: 1, pointerType: "mouse" });
    fireEvent.mouseUp(outside, { button: 0 });
    fireEvent.click(outside, { button: 0 });
  });
}

/** The button; found while the list is closed (an open list hides the page from the tree). */
function trigger() {
  return screen.getByRole("button", { name: /Study/ });
}

describe("the dropdown", () => {
  it("opens its list from the button and closes on an outside click without choosing", () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    expect(screen.queryByRole("listbox")).toBeNull();
    const button = trigger();
    fireEvent.click(button);
    expect(screen.getByRole("listbox")).toBeTruthy();
    expect(button.getAttribute("aria-expanded")).toBe("true");
    pressOutside();
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(button.getAttribute("aria-expanded")).toBe("false");
    expect(onChange).not.toHaveBeenCalled();
    expect(trigger().textContent).toContain("Choose a study");
  });

  it("chooses an option, names it on the button, and closes", () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    fireEvent.click(trigger());
    fireEvent.click(screen.getByRole("option", { name: "Anxiety study" }));
    expect(onChange).toHaveBeenCalledWith("gad");
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(trigger().textContent).toContain("Anxiety study");
  });

  it("opens from the keyboard and closes on Escape", () => {
    render(<Harness onChange={vi.fn()} />);
    const button = trigger();
    act(() => button.focus());
    fireEvent.keyDown(button, { key: "ArrowDown" });
    fireEvent.keyUp(button, { key: "ArrowDown" });
    const listbox = screen.getByRole("listbox");
    fireEvent.keyDown(document.activeElement ?? listbox, { key: "Escape" });
    fireEvent.keyUp(document.activeElement ?? listbox, { key: "Escape" });
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(button.getAttribute("aria-expanded")).toBe("false");
  });
});
