import { I18nProvider } from "@lingui/react";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { i18n } from "../../i18n/i18n.ts";
import { Drawer, DRAWER_CLOSE_MS } from "./drawer.tsx";

/**
 * jsdom plays no CSS animation, so React Aria would unmount the drawer at once. A browser runs
 * drawer.css's exit animation for --drawer-close-ms (set by the drawer): this stands in for it,
 * an animation of that length, on fake timers.
 */
function playExitAnimations() {
  const getAnimations = function (this: Element) {
    if (!(this instanceof HTMLElement) || !this.hasAttribute("data-exiting")) return [];
    const duration = Number.parseFloat(this.style.getPropertyValue("--drawer-close-ms"));
    if (!Number.isFinite(duration)) return [];
    const finished = new Promise<void>((resolve) => setTimeout(resolve, duration));
    return [{ playState: "running", finished }] as unknown as Animation[];
  };
  Object.defineProperty(Element.prototype, "getAnimations", { value: getAnimations, configurable: true });
}

function Harness({ onOpenChange }: { onOpenChange?: (isOpen: boolean) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <I18nProvider i18n={i18n}>
      <button type="button" onClick={() => setOpen(true)}>
        Open the menu
      </button>
      <Drawer
        isOpen={open}
        onOpenChange={(next) => {
          onOpenChange?.(next);
          setOpen(next);
        }}
        title="Menu"
      >
        <p>Studies, participants and visits.</p>
      </Drawer>
    </I18nProvider>
  );
}

function panel() {
  return document.querySelector<HTMLElement>(".drawer");
}

beforeEach(() => {
  // jsdom has no CSS.escape, which React Aria reads a meta tag with.
  vi.stubGlobal("CSS", { escape: (text: string) => text.replace(/["\\]/g, "\\$&") });
  vi.useFakeTimers();
  playExitAnimations();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  delete (Element.prototype as Partial<Element>).getAnimations;
});

describe("the drawer", () => {
  it("opens as a modal dialog named by its title, with focus inside", async () => {
    render(<Harness />);
    expect(panel()).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Open the menu" }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
    const dialog = screen.getByRole("dialog", { name: "Menu" });
    expect(dialog.textContent).toContain("Studies, participants and visits.");
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it("plays its 150 ms closing animation, then leaves the page", async () => {
    expect(DRAWER_CLOSE_MS).toBe(150);
    render(<Harness />);
    fireEvent.click(screen.getByRole("button", { name: "Open the menu" }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
    expect(panel()?.style.getPropertyValue("--drawer-close-ms")).toBe("150ms");
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    // Closing: still on the page, marked as exiting, for 150 ms.
    expect(panel()?.hasAttribute("data-exiting")).toBe(true);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(DRAWER_CLOSE_MS - 1);
    });
    expect(panel()).not.toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(panel()).toBeNull();
  });

  it("closes on Escape", async () => {
    const onOpenChange = vi.fn();
    render(<Harness onOpenChange={onOpenChange} />);
    fireEvent.click(screen.getByRole("button", { name: "Open the menu" }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    fireEvent.keyUp(document.activeElement!, { key: "Escape" });
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(DRAWER_CLOSE_MS);
    });
    expect(panel()).toBeNull();
  });

  it("closes on a click outside it (its overlay)", async () => {
    const onOpenChange = vi.fn();
    render(<Harness onOpenChange={onOpenChange} />);
    fireEvent.click(screen.getByRole("button", { name: "Open the menu" }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
    const overlay = document.querySelector<HTMLElement>(".drawer-overlay")!;
    act(() => {
      fireEvent.pointerDown(overlay, { button: 0, pointerId: 1, pointerType: "mouse" });
      fireEvent.mouseDown(overlay, { button: 0 });
      fireEvent.pointerUp(overlay, { button: 0, pointerId: 1, pointerType: "mouse" });
      fireEvent.mouseUp(overlay, { button: 0 });
      fireEvent.click(overlay, { button: 0 });
    });
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(DRAWER_CLOSE_MS);
    });
    expect(panel()).toBeNull();
  });
});
