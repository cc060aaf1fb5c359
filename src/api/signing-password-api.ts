/**
 * The server's check of one signing password try (POST /control/v2/signing-password/check,
 * core/contracts/signing-attempts.ts), in the words the signature dialog needs: accepted, refused
 * with the tries left, the session's tries used up, or no answer (the device checks instead).
 */
import { checkSigningPasswordCall } from "../../core/contracts/calls/signing-calls.ts";
import {
  signingPasswordRefused,
  type SigningPasswordCheckBody,
} from "../../core/contracts/signing-attempts.ts";
import * as z from "zod/mini";
import { callApi } from "./call-api.ts";
import { ApiError, NetworkError } from "./request.ts";

export type ServerSigningCheck =
  | { kind: "accepted" }
  | { kind: "refused"; attemptsLeft: number }
  | { kind: "exhausted" }
  /** No answer, or the server could not check it (5xx): the device's verifier decides. */
  | { kind: "unreachable" };

export async function checkSigningPasswordOnServer(
  body: SigningPasswordCheckBody,
): Promise<ServerSigningCheck> {
  try {
    await callApi(checkSigningPasswordCall, { body }, { suppressErrorToast: true });
    return { kind: "accepted" };
  } catch (error) {
    if (error instanceof NetworkError) return { kind: "unreachable" };
    if (error instanceof ApiError && error.status >= 500) return { kind: "unreachable" };
    if (error instanceof ApiError && error.status === 429) return { kind: "exhausted" };
    if (error instanceof ApiError && error.status === 422) {
      const refused = z.safeParse(signingPasswordRefused, error.body);
      return { kind: "refused", attemptsLeft: refused.success ? refused.data.attempts_left : 1 };
    }
    throw error;
  }
}
