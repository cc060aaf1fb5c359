import { changePasswordCall, loginCall } from "../contracts/calls/account-calls.ts";
import {
  changePasswordResponse,
  loginResponse,
  type ChangePasswordRequest,
  type LoginRequest,
} from "../contracts/auth.ts";
import { request } from "./request.ts";

/** POST /control/clinro/login (no auth). The caller shows the login messages itself. */
export function login(credentials: LoginRequest, utcOffsetMinutes: number) {
  return request({
    path: loginCall.path,
    method: loginCall.method,
    auth: false,
    body: credentials,
    headers: { "hpi-utc-offset": String(utcOffsetMinutes) },
    schema: loginResponse,
    suppressErrorToast: true,
    loaderKey: "login",
  });
}

/** POST /control/change_password. A 400 (wrong current password) must not sign the user out. */
export function changePassword(body: ChangePasswordRequest) {
  return request({
    path: changePasswordCall.path,
    method: changePasswordCall.method,
    body,
    schema: changePasswordResponse,
    suppressErrorToast: true,
    loaderKey: "change-password",
  });
}
