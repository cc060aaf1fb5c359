/**
 * Toasts waiting to be shown. Plain data: a message descriptor (translated when rendered) or a
 * server's own text, a kind, and how long it stays.
 */
import type { MessageDescriptor } from "@lingui/core";

export const TOAST_SUCCESS_MS = 2000;
export const TOAST_ERROR_MS = 2000;
export const TOAST_SESSION_MS = 5000;

export type ToastText = MessageDescriptor | string;
export type Toast = { id: number; text: ToastText; kind: "success" | "error" | "info"; durationMs: number };

type Listener = () => void;
const listeners = new Set<Listener>();
let toasts: readonly Toast[] = [];
let nextId = 1;

function emit(next: readonly Toast[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

export function showToast(text: ToastText, kind: Toast["kind"], durationMs: number): number {
  const id = nextId++;
  emit([...toasts, { id, text, kind, durationMs }]);
  return id;
}

export function dismissToast(id: number) {
  emit(toasts.filter((toast) => toast.id !== id));
}

export function getToasts() {
  return toasts;
}

export function subscribeToToasts(listener: Listener) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
