import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Button } from "../button/button.tsx";
import { Tooltip } from "./tooltip.tsx";

beforeEach(() => {
  // jsdom has no CSS.escape, which React Aria's overlays read a meta tag with.
  vi.stubGlobal("CSS", { escape: (text: string) => text.replace(/["\\]/g, "\\$&") });
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderTooltip() {
  render(
    <>
      <button type="button">Before</button>
      <Tooltip content="Sends the consent by email">
        <Button variant="secondary">Share</Button>
      </Tooltip>
    </>,
  );
  return screen.getByRole("button", { name: "Share" });
}

/** Focus as the keyboard gives it: a Tab press first, so React Aria counts it as keyboard focus. */
function tabTo(element: HTMLElement) {
  fireEvent.keyDown(document.body, { key: "Tab" });
  act(() => element.focus());
  fireEvent.keyUp(element, { key: "Tab" });
}

describe("the tooltip", () => {
  it("shows on keyboard focus of its trigger, describes it, and hides on blur", () => {
    const trigger = renderTooltip();
    expect(screen.queryByRole("tooltip")).toBeNull();
    tabTo(trigger);
    const tooltip = screen.getByRole("tooltip");
    expect(tooltip.textContent).toBe("Sends the consent by email");
    expect(trigger.getAttribute("aria-describedby")).toBe(tooltip.id);
    act(() => screen.getByRole("button", { name: "Before" }).focus());
    act(() => {
      vi.runAllTimers();
    });
    expect(screen.queryByRole("tooltip")).toBeNull();
  });

  it("hides on Escape", () => {
    const trigger = renderTooltip();
    tabTo(trigger);
    expect(screen.getByRole("tooltip")).toBeTruthy();
    fireEvent.keyDown(trigger, { key: "Escape" });
    fireEvent.keyUp(trigger, { key: "Escape" });
    act(() => {
      vi.runAllTimers();
    });
    expect(screen.queryByRole("tooltip")).toBeNull();
  });

  it("shows on hover after its delay, and hides when the pointer leaves", () => {
    const trigger = renderTooltip();
    // A pointer in use (React Aria keeps the last modality: the keyboard after the tests above).
    fireEvent.pointerDown(document.body, { pointerType: "mouse" });
    fireEvent.pointerUp(document.body, { pointerType: "mouse" });
    act(() => {
      // React makes its pointer enter and leave from pointerover and pointerout.
      fireEvent.pointerOver(trigger, { pointerType: "mouse" });
    });
    act(() => {
      vi.advanceTimersByTime(499);
    });
    expect(screen.queryByRole("tooltip")).toBeNull();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByRole("tooltip").textContent).toBe("Sends the consent by email");
    act(() => {
      fireEvent.pointerOut(trigger, { pointerType: "mouse" });
    });
    act(() => {
      vi.runAllTimers();
    });
    expect(screen.queryByRole("tooltip")).toBeNull();
  });
});
