import type { MessageDescriptor } from "@lingui/core";
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useState, type FormEvent } from "react";
import { useSignIn, type SignInResult } from "../../auth/sign-in.ts";
import { TextField } from "../../widgets/field/text-field.tsx";

type Props = {
  /** Called after a successful sign-in with the new account. */
  onSignedIn: (result: Extract<SignInResult, { ok: true }>) => void | Promise<void>;
  /** A message to show under the form after the sign-in (e.g. still no permission). */
  notice?: string | null;
};

/**
 * "Log in with another account" of the access-denied panel (spec 01 section 2): username and
 * password; the login error text appears under the form.
 */
export function SignInAnotherAccount({ onSignedIn, notice }: Props) {
  const { t, i18n } = useLingui();
  const usernameId = useId();
  const passwordId = useId();
  const errorId = useId();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<MessageDescriptor | null>(null);
  const signIn = useSignIn();
  const busy = signIn.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || !username.trim() || !password) return;
    setError(null);
    signIn.mutate(
      { username: username.trim(), password },
      {
        onSuccess: (result) => {
          if (!result.ok) {
            setError(result.message);
            return;
          }
          setPassword("");
          void onSignedIn(result);
        },
      },
    );
  };

  const message = error ? i18n._(error) : notice;
  return (
    <form className="form access-denied__form" onSubmit={submit} noValidate>
      <p className="access-denied__form-title">
        <Trans id="access_denied_other_account">Log in with another account</Trans>
      </p>
      <TextField
        label={<Trans id="access_denied_username">Username</Trans>}
        id={usernameId}
        type="email"
        autoComplete="username"
        value={username}
        onChange={(event) => setUsername(event.target.value)}
        aria-describedby={message ? errorId : undefined}
        required
      />
      <TextField
        label={<Trans id="access_denied_password">Password</Trans>}
        id={passwordId}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        aria-describedby={message ? errorId : undefined}
        required
      />
      <p id={errorId} className="form-error" role="alert" hidden={!message}>
        {message}
      </p>
      <button type="submit" className="button button--primary" disabled={busy}>
        <Trans id="access_denied_log_in">Log in</Trans>
      </button>
      <span className="visually-hidden" aria-live="polite">
        {busy ? t({ id: "access_denied_signing_in", message: "Signing in…" }) : ""}
      </span>
    </form>
  );
}
