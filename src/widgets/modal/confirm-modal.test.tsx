import { I18nProvider } from "@lingui/react";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { i18n } from "../../i18n/i18n.ts";
import { ConfirmModal, type ConfirmModalProps } from "./confirm-modal.tsx";

afterEach(cleanup);

function renderConfirm(props: Partial<ConfirmModalProps> = {}, children: ReactNode = "It cannot be undone.") {
  const onCancel = vi.fn();
  const onConfirm = vi.fn();
  render(
    <I18nProvider i18n={i18n}>
      <ConfirmModal title="Quit the instrument?" onCancel={onCancel} onConfirm={onConfirm} {...props}>
        {children}
      </ConfirmModal>
    </I18nProvider>,
  );
  return { onCancel, onConfirm };
}

function actionNames() {
  const dialog = screen.getByRole("dialog", { name: "Quit the instrument?" });
  return [...dialog.querySelectorAll(".modal__actions button")].map((button) => button.textContent);
}

describe("the confirmation modal", () => {
  it("has the spec's default buttons, Cancel then Confirm, with the focus on Cancel", () => {
    renderConfirm();
    const dialog = screen.getByRole("dialog", { name: "Quit the instrument?" });
    expect(document.getElementById(dialog.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "It cannot be undone.",
    );
    expect(actionNames()).toEqual(["Cancel", "Confirm"]);
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.getByRole("button", { name: "Confirm" }).className).toContain("button--primary");
  });

  it("calls onCancel from Cancel and onConfirm from Confirm, and only that one", () => {
    const first = renderConfirm();
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(first.onCancel).toHaveBeenCalledTimes(1);
    expect(first.onConfirm).not.toHaveBeenCalled();
    cleanup();
    const second = renderConfirm();
    fireEvent.click(screen.getByRole("button", { name: "Confirm" }));
    expect(second.onConfirm).toHaveBeenCalledTimes(1);
    expect(second.onCancel).not.toHaveBeenCalled();
  });

  it("cancels on Escape, never confirms", () => {
    const { onCancel, onConfirm } = renderConfirm();
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it("takes the caller's button texts, and a danger button for a destructive confirmation", () => {
    renderConfirm({ cancelText: "Keep answering", confirmText: "Quit", destructive: true });
    expect(actionNames()).toEqual(["Keep answering", "Quit"]);
    expect(screen.getByRole("button", { name: "Quit" }).className).toContain("button--danger");
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Keep answering" }));
  });
});
