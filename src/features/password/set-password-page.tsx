import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useEffect, useState, type FormEvent } from "react";
import { linkTokenQuery, useSetupPassword } from "../../api/account-api.ts";
import { ApiError, NetworkError } from "../../api/request.ts";
import { logout } from "../../auth/logout.ts";
import { getStoredUser } from "../../auth/session-store.ts";
import { COMMON_PASSWORD_CODE } from "../../../core/contracts/common-passwords.ts";
import { meetsPasswordPolicy } from "../../../core/contracts/password-policy.ts";
import { showToast, TOAST_SESSION_MS } from "../../widgets/toast/toast-store.ts";
import { linkOutcome, type LinkKind } from "./link-token.ts";
import { NewPasswordFields } from "./new-password-fields.tsx";
import { criteriaNotMet, newPasswordProblem } from "./password-messages.ts";

const tokenRejected = msg({ id: "pw_token_rejected", message: "Unable to authenticate user." });
const setupNetwork = msg({
  id: "pw_setup_network",
  message: "Your password could not be set. Check your connection and try again.",
});
const passwordSet = msg({ id: "pw_setup_done", message: "Your password has been set. Please sign in." });

/**
 * /users/activate and /users/reset (and /forgot-password with a token): an emailed link's token
 * is verified, then the user chooses a password and goes to sign in with it.
 */
export function SetPasswordPage({ link, token }: { link: LinkKind; token: string | undefined }) {
  const navigate = useNavigate();
  const verification = useQuery(linkTokenQuery(token));
  const outcome = verification.data ? linkOutcome(link, verification.data) : undefined;

  useEffect(() => {
    if (outcome?.kind === "unauthorized") void navigate({ to: "/unauthorized", replace: true });
    if (outcome?.kind === "already-set") void navigate({ to: "/users/me", replace: true });
  }, [outcome?.kind, navigate]);

  const failed = !token || verification.isError;
  return (
    <div className="auth-screen">
      <section className="auth-card" aria-labelledby="set-password-heading">
        <h1 id="set-password-heading" tabIndex={-1}>
          {link === "activate" ? (
            <Trans id="pw_setup_heading_activate">Activate your account</Trans>
          ) : (
            <Trans id="pw_setup_heading_reset">Choose a new password</Trans>
          )}
        </h1>
        {failed ? (
          <LinkFailed networkTrouble={verification.error instanceof NetworkError} />
        ) : outcome?.kind === "set-password" && token ? (
          <SetPasswordForm token={token} username={outcome.username} />
        ) : (
          <p className="lead" role="status">
            <Trans id="pw_setup_checking">Checking your link…</Trans>
          </p>
        )}
      </section>
    </div>
  );
}

function LinkFailed({ networkTrouble }: { networkTrouble: boolean }) {
  return (
    <>
      <p className="form-error" role="alert">
        {networkTrouble ? (
          <Trans id="pw_setup_check_network">
            Your link could not be checked. Check your connection and try again.
          </Trans>
        ) : (
          <Trans id="pw_token_rejected">Unable to authenticate user.</Trans>
        )}
      </p>
      <p>
        <Trans id="pw_setup_link_expired_hint">
          The link may have expired or been used already. You can ask for a new one.
        </Trans>
      </p>
      <div className="auth-card__links">
        <Link to="/forgot-password" className="text-link">
          <Trans id="forgot_password_link">Forgot your password?</Trans>
        </Link>
        <Link to="/login" className="text-link">
          <Trans id="back_to_sign_in">Back to sign in</Trans>
        </Link>
      </div>
    </>
  );
}

function SetPasswordForm({ token, username }: { token: string; username: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [error, setError] = useState<MessageDescriptor | string | null>(null);
  const [refusedAsCommon, setRefusedAsCommon] = useState<string | null>(null);
  const setup = useSetupPassword();
  const busy = setup.isPending;
  const canSubmit = meetsPasswordPolicy(password) && confirmation.length > 0;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const problem = newPasswordProblem(password, confirmation);
    if (problem) return setError(problem);
    setError(null);
    setup.mutate(
      { password, password_confirmation: confirmation, old_password: null, token },
      {
        onError: (failure) => {
          if (failure instanceof NetworkError) setError(setupNetwork);
          else if (failure instanceof ApiError && failure.status === 400) {
            const code = (failure.body as { code?: string } | undefined)?.code;
            // A common password is told beside the rules (NewPasswordFields).
            if (code === COMMON_PASSWORD_CODE) setRefusedAsCommon(password);
            else setError(code === "invalid_token" ? tokenRejected : criteriaNotMet);
          } else setError(tokenRejected);
        },
        onSuccess: () => {
          // The new password revokes every session of this account; whoever was signed in here,
          // the person following the link signs in next.
          if (getStoredUser()) logout();
          showToast(passwordSet, "success", TOAST_SESSION_MS);
          void navigate({ to: "/login", replace: true });
        },
      },
    );
  }

  return (
    <>
      <p className="lead">
        <Trans id="pw_setup_for">Choose the password for {username}.</Trans>
      </p>
      <form className="form" onSubmit={onSubmit} noValidate>
        {/* Lets password managers save the new password under the right account. */}
        <input type="email" name="username" autoComplete="username" value={username} readOnly hidden />
        <NewPasswordFields
          password={password}
          onPasswordChange={setPassword}
          confirmation={confirmation}
          onConfirmationChange={setConfirmation}
          error={error}
          refusedAsCommon={refusedAsCommon}
        />
        <button type="submit" className="button button--primary button--block" disabled={!canSubmit || busy}>
          {t({ id: "pw_setup_submit", message: "Set password" })}
        </button>
      </form>
    </>
  );
}
