import { changePasswordCall, loginCall } from "../../core/contracts/calls/account-calls.ts";
import { type ChangePasswordRequest, type LoginRequest } from "../../core/contracts/auth.ts";
import { serverClockOffsetMs } from "../auth/device-clock.ts";
import { callApi } from "./call-api.ts";

/**
 * POST /control/clinro/login (no auth). The caller shows the login messages itself. Answers the
 * server's clock minus the device's too (from its Date header), to judge the token's expiry by.
 */
export async function login(credentials: LoginRequest, utcOffsetMinutes: number) {
  const sentAt = Date.now();
  let dateHeader: string | null = null;
  const answer = await callApi(
    loginCall,
    { body: credentials },
    // A 403 is a deactivated account: the sign-in form says so (it is no session to end).
    {
      headers: { "hpi-utc-offset": String(utcOffsetMinutes) },
      suppressErrorToast: true,
      handle403Locally: true,
      loaderKey: "login",
      onHeaders: (headers) => {
        dateHeader = headers.get("date");
      },
    },
  );
  return { ...answer, clockOffsetMs: serverClockOffsetMs(dateHeader, sentAt, Date.now()) };
}

/** POST /control/change_password. A 400 (wrong current password) must not sign the user out. */
export function changePassword(body: ChangePasswordRequest) {
  return callApi(changePasswordCall, { body }, { suppressErrorToast: true, loaderKey: "change-password" });
}
