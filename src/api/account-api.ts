/**
 * The calls without a session that get a user (back) to a password (spec 01 section 7):
 * forgot_password, forgot_username, verify_token and setup_password. The pages show their own
 * messages, so the generic failure notice is suppressed for every one of them.
 */
import {
  accountMailAccepted,
  setupPasswordResponse,
  verifyTokenResponse,
  type SetupPasswordRequest,
} from "../contracts/password-setup.ts";
import { request } from "./request.ts";

/** The platform name the spec's calls carry. */
export const PLATFORM = "clinro";

/** POST /control/users/forgot_password (no auth) */
export function requestPasswordReset(username: string) {
  return request({
    path: "/control/users/forgot_password",
    method: "POST",
    auth: false,
    body: { username, platform: PLATFORM },
    schema: accountMailAccepted,
    suppressErrorToast: true,
    loaderKey: "forgot-password",
  });
}

/** POST /control/participants/me/forgot_username (no auth) */
export function requestUsernameReminder(email: string) {
  return request({
    path: "/control/participants/me/forgot_username",
    method: "POST",
    auth: false,
    body: { email },
    schema: accountMailAccepted,
    suppressErrorToast: true,
    loaderKey: "forgot-username",
  });
}

/** POST /control/users/verify_token (no auth): the emailed link's token. */
export function verifyLinkToken(token: string) {
  return request({
    path: "/control/users/verify_token",
    method: "POST",
    auth: false,
    body: { token },
    schema: verifyTokenResponse,
    suppressErrorToast: true,
    loader: true,
  });
}

/** POST /control/users/setup_password (no auth) */
export function setupPassword(body: Omit<SetupPasswordRequest, "platform_type">) {
  return request({
    path: "/control/users/setup_password",
    method: "POST",
    auth: false,
    body: { ...body, platform_type: PLATFORM },
    schema: setupPasswordResponse,
    suppressErrorToast: true,
    loaderKey: "setup-password",
  });
}
