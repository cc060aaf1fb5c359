import { getMeCall, listUsersCall, patchMeCall } from "../../core/contracts/calls/user-calls.ts";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { callApi } from "./call-api.ts";

export const userKeys = {
  all: ["users"] as const,
  me: () => [...userKeys.all, "me"] as const,
  list: () => [...userKeys.all, "list"] as const,
};

/** GET /control/clinro/users/me */
export function fetchMe(signal?: AbortSignal) {
  return callApi(getMeCall, {}, { signal });
}

export const meQuery = () =>
  queryOptions({
    queryKey: userKeys.me(),
    queryFn: ({ signal }) => fetchMe(signal),
    meta: { persist: true },
  });

/** GET /control/users: administrators only (the server answers 403 to anyone else). */
export function fetchUsers(signal?: AbortSignal) {
  return callApi(listUsersCall, {}, { loader: true, signal });
}

export const usersListQuery = () =>
  queryOptions({
    queryKey: userKeys.list(),
    queryFn: ({ signal }) => fetchUsers(signal),
  });

/**
 * PATCH /control/clinro/users/me with the whole user, nickname and phone replaced. The profile
 * page shows its own failure notice, so the generic one is suppressed.
 */
export function patchMe(user: Record<string, unknown>) {
  return callApi(patchMeCall, { body: user }, { suppressErrorToast: true, loaderKey: "profile-save" });
}

/** The profile's save: the answer is the saved user, which becomes the cached `me` at once. */
export function usePatchMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: patchMe,
    onSuccess: (saved) => queryClient.setQueryData(userKeys.me(), saved),
  });
}
