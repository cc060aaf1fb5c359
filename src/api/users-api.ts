import { queryOptions } from "@tanstack/react-query";
import { meResponse } from "../contracts/user.ts";
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
