/**
 * Changing the signed-in user's own password (POST /control/change_password). The server revokes
 * every earlier token and answers a fresh one, which replaces the stored one. Answers the message
 * to show when it did not work.
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { jwtDecode } from "jwt-decode";
import { changePassword } from "../api/auth-api.ts";
import { ApiError, NetworkError } from "../api/request.ts";
import { tokenPayload } from "../contracts/auth.ts";
import { showToast, TOAST_SUCCESS_MS } from "../widgets/toast/toast-store.ts";
import { updateStoredUser } from "./session-store.ts";

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
): Promise<{ ok: true } | { ok: false; message: MessageDescriptor | null }> {
  try {
    const { token } = await changePassword({ old_password: oldPassword, new_password: newPassword });
    const payload = tokenPayload.parse(jwtDecode(token));
    updateStoredUser({ ...payload, token, is_temporary_password: false });
    showToast(
      msg({ id: "pw_changed", message: "Your password has been changed." }),
      "success",
      TOAST_SUCCESS_MS,
    );
    return { ok: true };
  } catch (failure) {
    if (failure instanceof ApiError && failure.status === 400) {
      const code = (failure.body as { code?: string } | undefined)?.code;
      return { ok: false, message: code === "wrong_old_password" ? wrongCurrent : refused };
    }
    if (failure instanceof NetworkError) return { ok: false, message: networkFailed };
    // Anything else was already told by the request module (a toast, or the sign-out of a 401).
    return { ok: false, message: null };
  }
}
