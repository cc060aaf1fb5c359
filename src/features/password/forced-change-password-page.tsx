import type { MessageDescriptor } from "@lingui/core";
import { Trans, useLingui } from "@lingui/react/macro";
import { useNavigate } from "@tanstack/react-router";
import { useState, type FormEvent } from "react";
import { clearHeldPassword, getHeldPassword } from "../../auth/held-password.ts";
import { meetsPasswordPolicy } from "../../../core/contracts/password-policy.ts";
import { useChangeOwnPassword } from "../../auth/change-own-password.ts";
import { NewPasswordFields } from "./new-password-fields.tsx";
import { newPasswordProblem } from "./password-messages.ts";
import { TextField } from "../../widgets/field/text-field.tsx";

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
  const [refusedAsCommon, setRefusedAsCommon] = useState<string | null>(null);
  const change = useChangeOwnPassword((result) => {
    if (!result.ok) {
      if (result.commonPassword) setRefusedAsCommon(newPassword);
      return setError(result.message);
    }
    clearHeldPassword();
    // Spec 01 section 4: a password change returns to the profile.
    void navigate({ to: "/users/profile" });
  });
  const busy = change.isPending;

  const canSubmit =
    meetsPasswordPolicy(newPassword) &&
    confirmation.length > 0 &&
    (heldPassword !== undefined || currentPassword.length > 0);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const problem = newPasswordProblem(newPassword, confirmation);
    if (problem) return setError(problem);
    setError(null);
    change.mutate({ oldPassword: heldPassword ?? currentPassword, newPassword });
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
            <TextField
              label={<Trans id="pw_current">Current (temporary) password</Trans>}
              id="current-password"
              type="password"
              autoComplete="current-password"
              value={currentPassword}
              onChange={(event) => setCurrentPassword(event.target.value)}
            />
          ) : null}
          <NewPasswordFields
            password={newPassword}
            onPasswordChange={setNewPassword}
            confirmation={confirmation}
            onConfirmationChange={setConfirmation}
            error={error}
            refusedAsCommon={refusedAsCommon}
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
