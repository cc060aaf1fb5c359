/**
 * Changing the signed-in user's own password (POST /control/change_password). The server revokes
 * every earlier token and answers a fresh one, which replaces the stored one. Answers the message
 * to show when it did not work.
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useMutation } from "@tanstack/react-query";
import { jwtDecode } from "jwt-decode";
import { changePassword } from "../api/auth-api.ts";
import { ApiError, NetworkError } from "../api/request.ts";
import { tokenPayload } from "../../core/contracts/auth.ts";
import { COMMON_PASSWORD_CODE } from "../../core/contracts/common-passwords.ts";
import { showToast, TOAST_SUCCESS_MS } from "../widgets/toast/toast-store.ts";
import { fetchSigningKey } from "../api/signing-key-api.ts";
import { updateStoredUser } from "./session-store.ts";
import { prepareOfflineSigning } from "./signing-verifier.ts";

const wrongCurrent = msg({ id: "pw_wrong_current", message: "Your current password is incorrect." });
const refused = msg({
  id: "pw_criteria_not_met",
  message: "Please make sure your password meets all of the required criteria.",
});
const networkFailed = msg({
  id: "pw_change_network",
  message: "Your password could not be changed. Check your connection and try again.",
});

export async function changeOwnPassword(
  oldPassword: string,
  newPassword: string,
): Promise<{ ok: true } | { ok: false; message: MessageDescriptor | null; commonPassword?: boolean }> {
  try {
    const { token } = await changePassword({ old_password: oldPassword, new_password: newPassword });
    const payload = tokenPayload.parse(jwtDecode(token));
    updateStoredUser({ ...payload, token, is_temporary_password: false });
    // The consent signature's offline check must know the new password, not the old one.
    await prepareOfflineSigning(payload.id, newPassword, () => fetchSigningKey());
    showToast(
      msg({ id: "pw_changed", message: "Your password has been changed." }),
      "success",
      TOAST_SUCCESS_MS,
    );
    return { ok: true };
  } catch (failure) {
    if (failure instanceof ApiError && failure.status === 400) {
      const code = (failure.body as { code?: string } | undefined)?.code;
      // A common password is told beside the rules (NewPasswordFields), not as the form's error.
      if (code === COMMON_PASSWORD_CODE) return { ok: false, message: null, commonPassword: true };
      return { ok: false, message: code === "wrong_old_password" ? wrongCurrent : refused };
    }
    if (failure instanceof NetworkError) return { ok: false, message: networkFailed };
    // Anything else was already told by the request module (a toast, or the sign-out of a 401).
    return { ok: false, message: null };
  }
}

type ChangeResult = Awaited<ReturnType<typeof changeOwnPassword>>;

/**
 * The password change as a mutation; like the sequence, it answers its failures as a result.
 * `onDone` is the hook's own callback, which runs even when the page has gone meanwhile (the
 * forced change's page leaves as soon as the stored user is no longer temporary), unlike the
 * callbacks given to `mutate`.
 */
export function useChangeOwnPassword(onDone?: (result: ChangeResult) => void) {
  return useMutation({
    mutationFn: ({ oldPassword, newPassword }: { oldPassword: string; newPassword: string }) =>
      changeOwnPassword(oldPassword, newPassword),
    onSuccess: onDone,
  });
}
