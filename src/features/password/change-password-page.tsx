import type { MessageDescriptor } from "@lingui/core";
import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useNavigate } from "@tanstack/react-router";
import { useState, type FormEvent } from "react";
import { meetsPasswordPolicy } from "../../../core/contracts/password-policy.ts";
import { useChangeOwnPassword } from "../../auth/change-own-password.ts";
import { NewPasswordFields } from "./new-password-fields.tsx";
import { newPasswordProblem } from "./password-messages.ts";
import { TextField } from "../../widgets/field/text-field.tsx";

/**
 * /users/change-password: a signed-in user changes their password, giving the current one.
 * The server revokes every earlier token and answers a fresh one, which replaces the stored one.
 */
export function ChangePasswordPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [error, setError] = useState<MessageDescriptor | null>(null);
  const [refusedAsCommon, setRefusedAsCommon] = useState<string | null>(null);
  const change = useChangeOwnPassword();
  const busy = change.isPending;
  const canSubmit = meetsPasswordPolicy(newPassword) && confirmation.length > 0 && currentPassword.length > 0;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const problem = newPasswordProblem(newPassword, confirmation);
    if (problem) return setError(problem);
    setError(null);
    change.mutate(
      { oldPassword: currentPassword, newPassword },
      {
        onSuccess: (result) => {
          if (!result.ok) {
            if (result.commonPassword) setRefusedAsCommon(newPassword);
            return setError(result.message);
          }
          void navigate({ to: "/users/profile" });
        },
      },
    );
  }

  return (
    <div className="auth-screen">
      <section className="auth-card" aria-labelledby="change-password-heading">
        <h1 id="change-password-heading" tabIndex={-1}>
          <Trans id="pw_change_heading">Change your password</Trans>
        </h1>
        <form className="form" onSubmit={onSubmit} noValidate>
          <TextField
            label={<Trans id="pw_old">Current password</Trans>}
            id="old-password"
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(event) => setCurrentPassword(event.target.value)}
          />
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
          <Link to="/users/profile" className="button button--secondary button--block">
            <Trans id="pw_change_cancel">Back to my profile</Trans>
          </Link>
        </form>
      </section>
    </div>
  );
}
