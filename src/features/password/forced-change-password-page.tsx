import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useNavigate } from "@tanstack/react-router";
import { jwtDecode } from "jwt-decode";
import { useState, type FormEvent } from "react";
import { changePassword } from "../../api/auth-api.ts";
import { ApiError, NetworkError } from "../../api/request.ts";
import { clearHeldPassword, getHeldPassword } from "../../auth/held-password.ts";
import { updateStoredUser } from "../../auth/session-store.ts";
import { tokenPayload } from "../../contracts/auth.ts";
import { meetsPasswordPolicy } from "../../contracts/password-policy.ts";
import { useLoadingKey } from "../../widgets/loading/global-loader.tsx";
import { showToast, TOAST_SUCCESS_MS } from "../../widgets/toast/toast-store.ts";
import { NewPasswordFields } from "./new-password-fields.tsx";

const notMatching = msg({ id: "pw_not_matching", message: "Passwords do not match" });
const criteriaNotMet = msg({
  id: "pw_criteria_not_met",
  message: "Please make sure your password meets all of the required criteria.",
});
const wrongCurrent = msg({ id: "pw_wrong_current", message: "Your current password is incorrect." });
const networkFailed = msg({
  id: "pw_change_network",
  message: "Your password could not be changed. Check your connection and try again.",
});

/**
 * The forced change for a temporary password (/profile/change-password). The password typed at
 * sign-in is reused as the current one; after a reload it is asked for again.
 */
export function ForcedChangePasswordPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [heldPassword] = useState(getHeldPassword);
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [error, setError] = useState<MessageDescriptor | null>(null);
  const busy = useLoadingKey("change-password");

  const canSubmit =
    meetsPasswordPolicy(newPassword) &&
    confirmation.length > 0 &&
    (heldPassword !== undefined || currentPassword.length > 0);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!meetsPasswordPolicy(newPassword)) return setError(criteriaNotMet);
    if (newPassword !== confirmation) return setError(notMatching);
    setError(null);
    try {
      const { token } = await changePassword({
        old_password: heldPassword ?? currentPassword,
        new_password: newPassword,
      });
      const payload = tokenPayload.parse(jwtDecode(token));
      updateStoredUser({ ...payload, token, is_temporary_password: false });
      clearHeldPassword();
      showToast(
        msg({ id: "pw_changed", message: "Your password has been changed." }),
        "success",
        TOAST_SUCCESS_MS,
      );
      await navigate({ to: "/" });
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 400) {
        setError(
          (failure.body as { code?: string } | undefined)?.code === "wrong_old_password"
            ? wrongCurrent
            : criteriaNotMet,
        );
      } else if (failure instanceof NetworkError) {
        setError(networkFailed);
      }
    }
  }

  return (
    <div className="auth-screen">
      <section className="auth-card" aria-labelledby="forced-change-heading">
        <h1 id="forced-change-heading" tabIndex={-1}>
          <Trans id="pw_forced_heading">Create your password</Trans>
        </h1>
        <p className="lead">
          <Trans id="pw_forced_explanation">
            You signed in with a temporary password. Choose your own password to continue.
          </Trans>
        </p>
        <form className="form" onSubmit={onSubmit} noValidate>
          {heldPassword === undefined ? (
            <div className="field">
              <label htmlFor="current-password">
                <Trans id="pw_current">Current (temporary) password</Trans>
              </label>
              <input
                id="current-password"
                type="password"
                autoComplete="current-password"
                value={currentPassword}
                onChange={(event) => setCurrentPassword(event.target.value)}
              />
            </div>
          ) : null}
          <NewPasswordFields
            password={newPassword}
            onPasswordChange={setNewPassword}
            confirmation={confirmation}
            onConfirmationChange={setConfirmation}
            error={error}
          />
          <button
            type="submit"
            className="button button--primary button--block"
            disabled={!canSubmit || busy}
          >
            {t({ id: "pw_change_submit", message: "Change password" })}
          </button>
        </form>
      </section>
    </div>
  );
}
