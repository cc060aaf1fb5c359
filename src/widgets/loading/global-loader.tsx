import { useLingui } from "@lingui/react/macro";
import { useSyncExternalStore } from "react";
import { getLoadingState, subscribeToLoading } from "./loading-store.ts";

/** A thin bar at the top while a request that asked for the loader runs. */
export function GlobalLoader() {
  const { t } = useLingui();
  const state = useSyncExternalStore(subscribeToLoading, getLoadingState, getLoadingState);
  if (state.general === 0) return null;
  return (
    <div className="global-loader" role="progressbar" aria-label={t({ id: "loading", message: "Loading" })} />
  );
}

/** Whether a per-key request is running, e.g. useLoadingKey('login'). */
export function useLoadingKey(key: string) {
  const state = useSyncExternalStore(subscribeToLoading, getLoadingState, getLoadingState);
  return state.keys.has(key);
}
