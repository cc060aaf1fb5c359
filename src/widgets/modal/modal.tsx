/**
 * The one modal dialog of the portal: rendered over the page (a portal into <body>), labelled by
 * its title and described by its body, focus moved into it when it opens and kept inside it,
 * Escape closes it when it can be closed, and focus goes back where it was when it closes.
 * The caller mounts it to open it and unmounts it to close it.
 */
import { useEffect, useId, useRef, type ReactNode, type RefObject } from "react";
import { createPortal } from "react-dom";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export type ModalProps = {
  title: ReactNode;
  /** The message; it becomes the dialog's description. */
  children: ReactNode;
  /** The buttons, least destructive first: the first one gets the focus. */
  actions: ReactNode;
  /** Escape calls this; without it, Escape does nothing (the dialog asks for a decision). */
  onClose?: () => void;
  /** alertdialog for errors that interrupt the work; dialog otherwise. */
  role?: "dialog" | "alertdialog";
  /** Where focus goes after closing when the element that opened it is gone (e.g. a closed menu). */
  returnFocusTo?: RefObject<HTMLElement | null>;
  className?: string;
};

export function Modal({
  title,
  children,
  actions,
  onClose,
  role = "dialog",
  returnFocusTo,
  className,
}: ModalProps) {
  const titleId = useId();
  const bodyId = useId();
  const backdropRef = useRef<HTMLDivElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);

  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  // Focus in on open, back out on close; keep the page behind from scrolling.
  useEffect(() => {
    // The element that opened it; none when it left the page in the same render (focus fell to body).
    const active = document.activeElement;
    const opener = active instanceof HTMLElement && active !== document.body ? active : null;
    const fallback = returnFocusTo;
    const backdrop = backdropRef.current;
    const dialog = dialogRef.current;
    const first = dialog?.querySelector<HTMLElement>(".modal__actions button, .modal__actions a[href]");
    (first ?? dialog)?.focus();
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    // A press on the backdrop must not take focus out of the dialog.
    const keepFocus = (event: MouseEvent) => {
      if (event.target === backdrop) event.preventDefault();
    };
    backdrop?.addEventListener("mousedown", keepFocus);
    return () => {
      backdrop?.removeEventListener("mousedown", keepFocus);
      document.body.style.overflow = previousOverflow;
      const target = opener?.isConnected ? opener : fallback?.current;
      target?.focus();
    };
  }, [returnFocusTo]);

  // Escape closes; Tab and Shift+Tab cycle inside the dialog.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const dialog = dialogRef.current;
      if (!dialog) return;
      if (event.key === "Escape" && onCloseRef.current) {
        event.preventDefault();
        event.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (event.key !== "Tab") return;
      const focusable = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (element) => element.getAttribute("aria-hidden") !== "true",
      );
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) {
        event.preventDefault();
        dialog.focus();
        return;
      }
      const active = document.activeElement;
      if (event.shiftKey && (active === first || !dialog.contains(active))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !dialog.contains(active))) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener("keydown", onKeyDown, true);
    return () => document.removeEventListener("keydown", onKeyDown, true);
  }, []);

  return createPortal(
    <div ref={backdropRef} className="modal-backdrop">
      <div
        ref={dialogRef}
        className={className ? `modal ${className}` : "modal"}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        tabIndex={-1}
      >
        <h2 id={titleId} className="modal__title">
          {title}
        </h2>
        <div id={bodyId} className="modal__body">
          {children}
        </div>
        <div className="modal__actions">{actions}</div>
      </div>
    </div>,
    document.body,
  );
}
