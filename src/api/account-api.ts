/**
 * The calls without a session that get a user (back) to a password (spec 01 section 7):
 * forgot_password, forgot_username, verify_token and setup_password. The pages show their own
 * messages, so the generic failure notice is suppressed for every one of them.
 */
import {
  forgotPasswordCall,
  forgotUsernameCall,
  setupPasswordCall,
  verifyTokenCall,
} from "../../core/contracts/calls/account-calls.ts";
import { queryOptions, useMutation } from "@tanstack/react-query";
import { type SetupPasswordRequest } from "../../core/contracts/password-setup.ts";
import { PLATFORM } from "../../core/contracts/roles.ts";
import { callApi } from "./call-api.ts";

/** POST /control/users/forgot_password (no auth) */
export function requestPasswordReset(username: string) {
  return callApi(
    forgotPasswordCall,
    { body: { username, platform: PLATFORM } },
    { suppressErrorToast: true, loaderKey: "forgot-password" },
  );
}

/** POST /control/participants/me/forgot_username (no auth) */
export function requestUsernameReminder(email: string) {
  return callApi(
    forgotUsernameCall,
    { body: { email } },
    { suppressErrorToast: true, loaderKey: "forgot-username" },
  );
}

export const accountKeys = {
  all: ["account"] as const,
  linkToken: (token: string | undefined) => [...accountKeys.all, "link-token", token ?? null] as const,
};

/** The emailed link's token, verified once (it works without a session, unlike every other query). */
export const linkTokenQuery = (token: string | undefined) =>
  queryOptions({
    queryKey: accountKeys.linkToken(token),
    queryFn: () => verifyLinkToken(token ?? ""),
    enabled: Boolean(token),
    retry: false,
    gcTime: 0,
    staleTime: Infinity,
  });

/** POST /control/users/verify_token (no auth): the emailed link's token. */
export function verifyLinkToken(token: string) {
  return callApi(verifyTokenCall, { body: { token } }, { suppressErrorToast: true, loader: true });
}

/** POST /control/users/setup_password (no auth) */
export function setupPassword(body: Omit<SetupPasswordRequest, "platform_type">) {
  return callApi(
    setupPasswordCall,
    { body: { ...body, platform_type: PLATFORM } },
    { suppressErrorToast: true, loaderKey: "setup-password" },
  );
}

/** The forgot-password form's write; the page shows the same neutral outcome either way. */
export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}

/** The forgot-username form's write. */
export function useRequestUsernameReminder() {
  return useMutation({ mutationFn: requestUsernameReminder });
}

/** The emailed link's password setup. */
export function useSetupPassword() {
  return useMutation({ mutationFn: setupPassword });
}
