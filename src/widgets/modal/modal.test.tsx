import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useRef, useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Modal } from "./modal.tsx";

afterEach(cleanup);

function Opener({ onClose }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  const close = () => {
    onClose?.();
    setOpen(false);
  };
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Discard
      </button>
      {open ? (
        <Modal
          title="Discard this item?"
          onClose={close}
          actions={
            <>
              <button type="button" onClick={close}>
                Cancel
              </button>
              <button type="button" onClick={close}>
                Confirm
              </button>
            </>
          }
        >
          <p>It cannot be sent afterwards.</p>
        </Modal>
      ) : null}
    </>
  );
}

describe("the modal dialog", () => {
  it("is a modal dialog named by its title and described by its message", () => {
    render(<Opener />);
    fireEvent.click(screen.getByRole("button", { name: "Discard" }));
    const dialog = screen.getByRole("dialog", { name: "Discard this item?" });
    expect(dialog.getAttribute("aria-modal")).toBe("true");
    const description = document.getElementById(dialog.getAttribute("aria-describedby") ?? "");
    expect(description?.textContent).toBe("It cannot be sent afterwards.");
  });

  it("moves focus to its first button, the least destructive one", () => {
    render(<Opener />);
    fireEvent.click(screen.getByRole("button", { name: "Discard" }));
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Cancel" }));
  });

  it("keeps Tab and Shift+Tab inside the dialog", () => {
    render(<Opener />);
    fireEvent.click(screen.getByRole("button", { name: "Discard" }));
    const cancel = screen.getByRole("button", { name: "Cancel" });
    const confirm = screen.getByRole("button", { name: "Confirm" });
    confirm.focus();
    fireEvent.keyDown(confirm, { key: "Tab" });
    expect(document.activeElement).toBe(cancel);
    fireEvent.keyDown(cancel, { key: "Tab", shiftKey: true });
    expect(document.activeElement).toBe(confirm);
  });

  it("closes on Escape and gives focus back to what opened it", () => {
    const onClose = vi.fn();
    render(<Opener onClose={onClose} />);
    const opener = screen.getByRole("button", { name: "Discard" });
    opener.focus();
    fireEvent.click(opener);
    fireEvent.keyDown(document.activeElement ?? document, { key: "Escape" });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it("ignores Escape when it has no way to close", () => {
    render(
      <Modal title="Network error" role="alertdialog" actions={<button type="button">Retry</button>}>
        <p>Try again.</p>
      </Modal>,
    );
    fireEvent.keyDown(document, { key: "Escape" });
    expect(screen.getByRole("alertdialog", { name: "Network error" })).not.toBeNull();
  });

  it("gives focus to the fallback when what opened it is gone", () => {
    function MenuAndModal() {
      const menuButton = useRef<HTMLButtonElement>(null);
      const [menuOpen, setMenuOpen] = useState(true);
      const [modalOpen, setModalOpen] = useState(false);
      return (
        <>
          <button type="button" ref={menuButton}>
            Menu
          </button>
          {menuOpen ? (
            <button
              type="button"
              onClick={() => {
                setMenuOpen(false);
                setModalOpen(true);
              }}
            >
              Log out
            </button>
          ) : null}
          {modalOpen ? (
            <Modal
              title="Log out?"
              returnFocusTo={menuButton}
              onClose={() => setModalOpen(false)}
              actions={<button type="button">Cancel</button>}
            >
              <p>Items wait.</p>
            </Modal>
          ) : null}
        </>
      );
    }
    render(<MenuAndModal />);
    const logOut = screen.getByRole("button", { name: "Log out" });
    logOut.focus();
    act(() => logOut.click());
    fireEvent.keyDown(document, { key: "Escape" });
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Menu" }));
  });
});
