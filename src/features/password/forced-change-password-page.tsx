import type { MessageDescriptor } from "@lingui/core";
import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { logout } from "../../auth/logout.ts";
import { markPasswordJustSet } from "../../auth/password-just-set.ts";
import { clearHeldPassword, getHeldPassword } from "../../auth/held-password.ts";
import { meetsPasswordPolicy } from "../../../core/contracts/password-policy.ts";
import { useChangeOwnPassword } from "../../auth/change-own-password.ts";
import { NewPasswordFields } from "./new-password-fields.tsx";
import { newPasswordProblem } from "./password-messages.ts";
import { TextField } from "../../widgets/field/text-field.tsx";

/**
 * The forced change for a temporary password (/profile/change-password). The password typed at
 * sign-in is reused as the current one; after a reload it is asked for again. It ends with a
 * confirmation and the next step (choose a study, or the profile the spec returns to), and offers
 * signing out throughout: a tablet may be handed on without the change being made.
 */
export function ForcedChangePasswordPage() {
  const { t } = useLingui();
  const [done, setDone] = useState(false);
  const [heldPassword] = useState(getHeldPassword);
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [error, setError] = useState<MessageDescriptor | null>(null);
  const [refusedAsCommon, setRefusedAsCommon] = useState<string | null>(null);
  const change = useChangeOwnPassword((result) => {
    if (!result.ok) {
      markPasswordJustSet(false);
      if (result.commonPassword) setRefusedAsCommon(newPassword);
      return setError(result.message);
    }
    clearHeldPassword();
    // A confirmation with the next step rather than a silent jump (spec 01 section 4 returns to
    // the profile; the coordinator expects to be told and led on, so the profile is one choice).
    setDone(true);
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
    // Before the call: its new token re-runs the route guards, which must let the confirmation show.
    markPasswordJustSet(true);
    change.mutate({ oldPassword: heldPassword ?? currentPassword, newPassword });
  }

  if (done) return <PasswordSetConfirmation />;

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
          <button type="button" className="button button--secondary button--block" onClick={() => logout()}>
            <Trans id="pw_forced_sign_out">Sign out</Trans>
          </button>
        </form>
      </section>
    </div>
  );
}

/** The end of the forced change: what happened, the next step, and signing out. */
function PasswordSetConfirmation() {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The form is gone: focus goes to the news that replaced it. Leaving forgets the confirmation.
  useEffect(() => {
    markPasswordJustSet(true);
    headingRef.current?.focus();
    return () => markPasswordJustSet(false);
  }, []);
  return (
    <div className="auth-screen">
      <section className="auth-card" aria-labelledby="forced-change-done-heading">
        <h1 id="forced-change-done-heading" tabIndex={-1} ref={headingRef}>
          <Trans id="pw_forced_done_heading">Your password is set</Trans>
        </h1>
        <p className="lead">
          <Trans id="pw_forced_done_body">
            Sign in with your new password from now on. Next, choose a study and a site to start working.
          </Trans>
        </p>
        <div className="form">
          <Link to="/studies" className="button button--primary button--block">
            <Trans id="pw_forced_done_studies">Choose a study</Trans>
          </Link>
          <Link to="/users/profile" className="button button--secondary button--block">
            <Trans id="pw_forced_done_profile">Review your profile</Trans>
          </Link>
          <button type="button" className="button button--secondary button--block" onClick={() => logout()}>
            <Trans id="pw_forced_sign_out">Sign out</Trans>
          </button>
        </div>
      </section>
    </div>
  );
}
