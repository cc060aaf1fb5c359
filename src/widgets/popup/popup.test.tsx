import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Popup } from "./popup.tsx";

beforeEach(() => {
  // jsdom has no CSS.escape, which React Aria's popover reads a meta tag with.
  vi.stubGlobal("CSS", { escape: (text: string) => text.replace(/["\\]/g, "\\$&") });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPopup() {
  render(
    <>
      <p>Outside</p>
      <Popup trigger="Details" title="Visit details">
        {(close) => (
          <>
            <p>Recorded visit, 30 minutes.</p>
            <button type="button" onClick={close}>
              Done
            </button>
          </>
        )}
      </Popup>
    </>,
  );
  return screen.getByRole("button", { name: "Details" });
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

describe("the popup", () => {
  it("opens a dialog named by its title from its button, with focus moved in", async () => {
    const button = renderPopup();
    expect(screen.queryByRole("dialog")).toBeNull();
    fireEvent.click(button);
    const dialog = screen.getByRole("dialog", { name: "Visit details" });
    expect(dialog.textContent).toContain("Recorded visit, 30 minutes.");
    expect(button.getAttribute("aria-expanded")).toBe("true");
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
  });

  it("closes on a click outside it", () => {
    const button = renderPopup();
    fireEvent.click(button);
    expect(screen.getByRole("dialog", { name: "Visit details" })).toBeTruthy();
    pressOutside();
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(button.getAttribute("aria-expanded")).toBe("false");
  });

  it("stays open on a click inside it", () => {
    const button = renderPopup();
    fireEvent.click(button);
    const text = screen.getByText("Recorded visit, 30 minutes.");
    act(() => {
      fireEvent.pointerDown(text, { button: 0, pointerId: 1, pointerType: "mouse" });
      fireEvent.pointerUp(text, { button: 0, pointerId: 1, pointerType: "mouse" });
      fireEvent.click(text, { button: 0 });
    });
    expect(screen.getByRole("dialog", { name: "Visit details" })).toBeTruthy();
  });

  it("closes on Escape, and from its content's close, with focus back on its button", async () => {
    const button = renderPopup();
    // A real press focuses the button first; fireEvent.click does not.
    act(() => button.focus());
    fireEvent.click(button);
    const dialog = screen.getByRole("dialog", { name: "Visit details" });
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    fireEvent.keyUp(document.activeElement!, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(button));

    fireEvent.click(button);
    fireEvent.click(screen.getByRole("button", { name: "Done" }));
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});
