import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui as useLinguiRuntime } from "@lingui/react";
import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useNavigate } from "@tanstack/react-router";
import { useId, useRef, useState, type FormEvent } from "react";
import { FORCED_CHANGE_PATH, safeRedirectTarget } from "../../auth/guards.ts";
import { useSignIn } from "../../auth/sign-in.ts";
import { forgetSignOutReason, signOutReason } from "../../auth/sign-out-reason.ts";
import { PendingSignOutNotice } from "../../outbox-ui/pending-sign-out-notice.tsx";
import { BrandMark } from "../../widgets/brand.tsx";
import { TextField } from "../../widgets/field/text-field.tsx";

const missingFields = msg({ id: "login_missing_fields", message: "Enter your username and password." });

export function LoginPage({ redirectTarget }: { redirectTarget?: string }) {
  const { t } = useLingui();
  const { i18n } = useLinguiRuntime();
  const navigate = useNavigate();
  const errorId = useId();
  const [error, setError] = useState<MessageDescriptor | null>(null);
  // Why the server ended the last session, said until the next sign-in is tried.
  const [endedBecause, setEndedBecause] = useState(signOutReason);
  const signIn = useSignIn();
  const busy = signIn.isPending;
  const usernameRef = useRef<HTMLInputElement>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const username = String(form.get("username") ?? "").trim();
    const password = String(form.get("password") ?? "");
    if (!username || !password) {
      setError(missingFields);
      return;
    }
    setError(null);
    setEndedBecause(undefined);
    forgetSignOutReason();
    signIn.mutate(
      { username, password },
      {
        onSuccess: (result) => {
          if (!result.ok) {
            setError(result.message);
            usernameRef.current?.focus();
            return;
          }
          if (result.temporaryPassword) void navigate({ to: FORCED_CHANGE_PATH });
          else void navigate({ href: safeRedirectTarget(redirectTarget) ?? "/" });
        },
      },
    );
  }

  return (
    <div className="auth-screen">
      <section className="auth-card" aria-labelledby="login-heading">
        <div className="brand brand--large" aria-hidden="true">
          <BrandMark />
        </div>
        <h1 id="login-heading" tabIndex={-1}>
          <Trans id="login_heading">Sign in to the clinician portal</Trans>
        </h1>
        {endedBecause ? (
          <p className="form-error" role="status">
            {i18n._(endedBecause)}
          </p>
        ) : null}
        <PendingSignOutNotice />
        <form className="form" onSubmit={onSubmit} noValidate aria-describedby={error ? errorId : undefined}>
          <TextField
            label={<Trans id="login_username">Username</Trans>}
            ref={usernameRef}
            id="login-username"
            name="username"
            type="email"
            autoComplete="username"
            inputMode="email"
            autoCapitalize="none"
            spellCheck={false}
            required
          />
          <TextField
            label={<Trans id="login_password">Password</Trans>}
            id="login-password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
          />
          {error ? (
            <p id={errorId} className="form-error" role="alert">
              {i18n._(error)}
            </p>
          ) : null}
          <button type="submit" className="button button--primary button--block" disabled={busy}>
            {busy
              ? t({ id: "login_submitting", message: "Signing in…" })
              : t({ id: "login_submit", message: "Log in" })}
          </button>
        </form>
        <p className="auth-card__links">
          <Link to="/forgot-password" className="text-link">
            <Trans id="forgot_password_link">Forgot your password?</Trans>
          </Link>
          <Link to="/forgot-password" hash="forgot-username" className="text-link">
            <Trans id="forgot_username_link">Forgot your username?</Trans>
          </Link>
        </p>
      </section>
    </div>
  );
}
