import { useLingui } from "@lingui/react";
import { useLingui as useLinguiMacro } from "@lingui/react/macro";
import { useEffect, useSyncExternalStore } from "react";
import { dismissToast, getToasts, subscribeToToasts, type Toast } from "./toast-store.ts";

function ToastItem({ toast }: { toast: Toast }) {
  const { i18n } = useLingui();
  const { t } = useLinguiMacro();
  useEffect(() => {
    const timer = setTimeout(() => dismissToast(toast.id), toast.durationMs);
    return () => clearTimeout(timer);
  }, [toast.id, toast.durationMs]);
  const text = typeof toast.text === "string" ? toast.text : i18n._(toast.text);
  return (
    <div className={`toast toast--${toast.kind}`} role={toast.kind === "error" ? "alert" : "status"}>
      <span className="toast__text">{text}</span>
      <button
        type="button"
        className="toast__close"
        aria-label={t({ id: "toast_dismiss", message: "Dismiss" })}
        onClick={() => dismissToast(toast.id)}
      >
        ×
      </button>
    </div>
  );
}

/** Toasts at top centre, announced to screen readers. */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToToasts, getToasts, getToasts);
  return (
    <div className="toaster">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}
