/**
 * The sign-in sequence of spec 01 section 4: login, merge the token's payload into the stored
 * user, hold the typed password when it is temporary, then the me call. Returns where to go.
 */
import { useMutation } from "@tanstack/react-query";
import { jwtDecode } from "jwt-decode";
import type { MessageDescriptor } from "@lingui/core";
import { login } from "../api/auth-api.ts";
import { loginFailureMessage, loginNetworkMessage } from "../api/error-messages.ts";
import { ApiError } from "../api/request.ts";
import { fetchMe } from "../api/users-api.ts";
import { tokenPayload, type LoginRequest } from "../../core/contracts/auth.ts";
import { fetchSigningKey } from "../api/signing-key-api.ts";
import { holdPassword } from "./held-password.ts";
import { prepareOfflineSigning } from "./signing-verifier.ts";
import { logout } from "./logout.ts";
import { setStoredUser, updateStoredUser } from "./session-store.ts";

export type SignInResult =
  { ok: true; temporaryPassword: boolean } | { ok: false; message: MessageDescriptor };

/** The browser's offset from UTC in minutes, east positive, as the hpi-utc-offset header wants. */
export function localUtcOffsetMinutes(date = new Date()) {
  return -date.getTimezoneOffset();
}

export async function signIn(credentials: LoginRequest): Promise<SignInResult> {
  let answer;
  try {
    answer = await login(credentials, localUtcOffsetMinutes());
  } catch (error) {
    return {
      ok: false,
      message: error instanceof ApiError ? loginFailureMessage(error.status) : loginNetworkMessage,
    };
  }
  const payload = tokenPayload.parse(jwtDecode(answer.token));
  setStoredUser({
    ...payload,
    token: answer.token,
    is_temporary_password: answer.is_temporary_password,
    last_active: Date.now(),
    clock_offset_ms: answer.clockOffsetMs,
  });
  if (answer.is_temporary_password) holdPassword(credentials.password);
  try {
    const me = await fetchMe();
    updateStoredUser({ ...me, is_temporary_password: answer.is_temporary_password });
  } catch (error) {
    // Half a sign-in is no sign-in: revoke the new token and forget the held password.
    logout();
    if (!(error instanceof ApiError)) {
      return { ok: false, message: loginNetworkMessage };
    }
    return { ok: false, message: loginFailureMessage(error.status) };
  }
  // Part 11: a consent signature asks for this password again, also offline (signing-verifier.ts).
  await prepareOfflineSigning(payload.id, credentials.password, () => fetchSigningKey());
  return { ok: true, temporaryPassword: answer.is_temporary_password };
}

/**
 * The sign-in as a mutation: components call `mutate(credentials, { onSuccess })`. The sequence
 * answers its failures as a result (the message to show), so the mutation itself never fails.
 */
export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}
