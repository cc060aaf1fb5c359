import { useSyncExternalStore } from "react";
import { getStoredUser, subscribeToStoredUser } from "./session-store.ts";

/** The signed-in user, re-rendering when it changes here or in another tab. */
export function useStoredUser() {
  return useSyncExternalStore(subscribeToStoredUser, getStoredUser, () => null);
}
