import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { useId, useState, type FormEvent } from "react";
import { useRequestPasswordReset, useRequestUsernameReminder } from "../../api/account-api.ts";
import { NetworkError } from "../../api/request.ts";
import { BrandMark } from "../../widgets/brand.tsx";
import { TextField } from "../../widgets/field/text-field.tsx";

type Outcome = "sent" | "network" | null;

/**
 * What to tell the person once the request is done: the same neutral confirmation whatever the
 * server said (it does not tell who has an account), unless the server could not be reached.
 */
function neutralOutcome(request: { isSuccess: boolean; isError: boolean; error: unknown }): Outcome {
  if (request.isError) return request.error instanceof NetworkError ? "network" : "sent";
  return request.isSuccess ? "sent" : null;
}

/**
 * /forgot-password: ask for a reset link by username (forgot_password) or for the username by
 * email (forgot_username). With a link's token in the query string it is the reset form itself
 * (see SetPasswordPage).
 */
export function ForgotPasswordPage() {
  return (
    <div className="auth-screen">
      <section className="auth-card" aria-labelledby="forgot-heading">
        <div className="brand brand--large" aria-hidden="true">
          <BrandMark />
        </div>
        <h1 id="forgot-heading" tabIndex={-1}>
          <Trans id="forgot_heading">Forgot your password?</Trans>
        </h1>
        <ForgotPasswordForm />
        <ForgotUsernameForm />
        <p className="auth-card__links">
          <Link to="/login" className="text-link">
            <Trans id="back_to_sign_in">Back to sign in</Trans>
          </Link>
        </p>
      </section>
    </div>
  );
}

function ForgotPasswordForm() {
  const { t } = useLingui();
  const inputId = useId();
  const [username, setUsername] = useState("");
  const reset = useRequestPasswordReset();
  const outcome = neutralOutcome(reset);
  const busy = reset.isPending;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const value = username.trim();
    if (value) reset.mutate(value);
  }

  return (
    <form className="form forgot-form" onSubmit={onSubmit} noValidate>
      <p className="lead">
        <Trans id="forgot_password_explanation">
          Enter your username (your email address) and we will email you a link to choose a new password.
        </Trans>
      </p>
      <TextField
        label={<Trans id="login_username">Username</Trans>}
        id={inputId}
        type="email"
        autoComplete="username"
        inputMode="email"
        autoCapitalize="none"
        spellCheck={false}
        value={username}
        onChange={(event) => setUsername(event.target.value)}
      />
      <div role="status" className="forgot-form__status">
        {outcome === "sent" ? (
          <p className="form-notice">
            <Trans id="forgot_password_sent">
              If an account has this username, we have sent it an email with a link to choose a new password.
            </Trans>
          </p>
        ) : outcome === "network" ? (
          <p className="form-error">
            <Trans id="forgot_network">
              The request could not be sent. Check your connection and try again.
            </Trans>
          </p>
        ) : null}
      </div>
      <button
        type="submit"
        className="button button--primary button--block"
        disabled={!username.trim() || busy}
      >
        {t({ id: "forgot_password_submit", message: "Send reset link" })}
      </button>
    </form>
  );
}

function ForgotUsernameForm() {
  const { t } = useLingui();
  const headingId = useId();
  const inputId = useId();
  const [email, setEmail] = useState("");
  const reminder = useRequestUsernameReminder();
  const outcome = neutralOutcome(reminder);
  const busy = reminder.isPending;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const value = email.trim();
    if (value) reminder.mutate(value);
  }

  return (
    <form
      id="forgot-username"
      className="form forgot-form"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={headingId}
    >
      <h2 id={headingId} className="forgot-form__heading">
        <Trans id="forgot_username_heading">Forgot your username?</Trans>
      </h2>
      <p className="lead">
        <Trans id="forgot_username_explanation">
          Enter your email address and we will email you your username.
        </Trans>
      </p>
      <TextField
        label={<Trans id="forgot_username_email">Email address</Trans>}
        id={inputId}
        type="email"
        autoComplete="email"
        inputMode="email"
        autoCapitalize="none"
        spellCheck={false}
        value={email}
        onChange={(event) => setEmail(event.target.value)}
      />
      <div role="status" className="forgot-form__status">
        {outcome === "sent" ? (
          <p className="form-notice">
            <Trans id="forgot_username_sent">
              If an account has this email address, we have sent it an email with its username.
            </Trans>
          </p>
        ) : outcome === "network" ? (
          <p className="form-error">
            <Trans id="forgot_network">
              The request could not be sent. Check your connection and try again.
            </Trans>
          </p>
        ) : null}
      </div>
      <button
        type="submit"
        className="button button--secondary button--block"
        disabled={!email.trim() || busy}
      >
        {t({ id: "forgot_username_submit", message: "Email my username" })}
      </button>
    </form>
  );
}
