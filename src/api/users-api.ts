import { queryOptions } from "@tanstack/react-query";
import { meResponse } from "../contracts/user.ts";
import { usersResponse } from "../contracts/users.ts";
import { request } from "./request.ts";

export const userKeys = {
  me: () => ["users", "me"] as const,
};

/** GET /control/clinro/users/me */
export function fetchMe(signal?: AbortSignal) {
  return request({ path: "/control/clinro/users/me", schema: meResponse, signal });
}

export const meQuery = () =>
  queryOptions({
    queryKey: userKeys.me(),
    queryFn: ({ signal }) => fetchMe(signal),
    meta: { persist: true },
  });

/** GET /control/users: administrators only (the server answers 403 to anyone else). */
export function fetchUsers(signal?: AbortSignal) {
  return request({ path: "/control/users", schema: usersResponse, loader: true, signal });
}

export const usersListQuery = () =>
  queryOptions({
    queryKey: ["users", "list"] as const,
    queryFn: ({ signal }) => fetchUsers(signal),
  });

/**
 * PATCH /control/clinro/users/me with the whole user, nickname and phone replaced. The profile
 * page shows its own failure notice, so the generic one is suppressed.
 */
export function patchMe(user: Record<string, unknown>) {
  return request({
    path: "/control/clinro/users/me",
    method: "PATCH",
    body: user,
    schema: meResponse,
    suppressErrorToast: true,
    loaderKey: "profile-save",
  });
}
