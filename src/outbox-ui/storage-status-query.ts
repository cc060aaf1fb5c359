/**
 * The storage status of the review page as a query under the outbox's key, so that every outbox
 * change (which invalidates ["outbox", ...]) also refreshes the quota used.
 */
import { queryOptions } from "@tanstack/react-query";
import { readStorageStatus, requestPersistentStorage } from "../outbox/persistent-storage.ts";
import { outboxKeys } from "./use-outbox.ts";

export const storageStatusQuery = () =>
  queryOptions({
    queryKey: [...outboxKeys.all, "storage-status"] as const,
    queryFn: async () => {
      // Asks at most once per page load, and only when storage is not persistent yet.
      await requestPersistentStorage();
      return readStorageStatus();
    },
    networkMode: "always",
    staleTime: Infinity,
    enabled: true,
  });
