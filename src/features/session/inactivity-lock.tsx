import { msg, plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { logout } from "../../auth/logout.ts";
import type { StoredUser } from "../../auth/session-store.ts";
import { MAX_UNLOCK_ATTEMPTS, unlockSession } from "../../auth/unlock-session.ts";
import { Modal } from "../../widgets/modal/modal.tsx";
import { TextField } from "../../widgets/field/text-field.tsx";

const tooManyAttemptsMessage = msg({
  id: "idle_too_many_attempts",
  message: "Too many incorrect passwords. Please log back in.",
});

/**
 * The inactivity lock (spec 01 sections 4 and 9): the page is covered, the password is asked for,
 * and the seconds left before sign-out count down. The right password opens it (in every tab,
 * through the shared last_active stamp); too many wrong ones, or zero, sign out.
 */
export function InactivityLock({ remainingS, user }: { remainingS: number; user: StoredUser }) {
  const { t } = useLingui();
  const formId = useId();
  const passwordId = useId();
  const errorId = useId();
  const passwordRef = useRef<HTMLInputElement>(null);
  const [password, setPassword] = useState("");
  const [checking, setChecking] = useState(false);
  const [failures, setFailures] = useState(0);
  const [problem, setProblem] = useState<"wrong" | "unavailable" | null>(null);

  // The password field, not the first button, takes the focus: typing is what the lock asks for.
  useEffect(() => {
    passwordRef.current?.focus();
  }, []);

  // The form fires this and forgets it (`void`): the lock shows its own outcome.
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (checking) return;
    setChecking(true);
    const result = await unlockSession(user, password);
    setChecking(false);
    if (result.ok) return;
    setPassword("");
    setProblem(result.reason);
    passwordRef.current?.focus();
    if (result.reason !== "wrong") return;
    const total = failures + 1;
    setFailures(total);
    if (total >= MAX_UNLOCK_ATTEMPTS) logout(tooManyAttemptsMessage);
  }

  const attemptsLeft = MAX_UNLOCK_ATTEMPTS - failures;
  return (
    <Modal
      role="alertdialog"
      className="idle-modal"
      title={t({ id: "idle_lock_heading", message: "Session locked" })}
      actions={
        <>
          <button type="submit" form={formId} className="button button--primary" disabled={checking}>
            <Trans id="idle_unlock">Unlock</Trans>
          </button>
          <button type="button" className="button button--secondary" onClick={() => logout()}>
            <Trans id="idle_sign_out">Sign out</Trans>
          </button>
        </>
      }
    >
      <p>
        <Trans id="idle_lock_body">
          Your session was locked after a period of inactivity. Enter your password to continue.
        </Trans>
      </p>
      <p className="idle-modal__countdown" aria-live="off">
        {t({
          id: "idle_countdown",
          message: plural(remainingS, {
            one: "Signing out in # second",
            other: "Signing out in # seconds",
          }),
        })}
      </p>
      <form id={formId} className="form" onSubmit={(event) => void onSubmit(event)} noValidate>
        {/* The account being unlocked, for password managers and for the reader. */}
        <input type="hidden" name="username" autoComplete="username" value={user.username} />
        <TextField
          label={<Trans id="idle_password">Password</Trans>}
          ref={passwordRef}
          id={passwordId}
          type="password"
          autoComplete="current-password"
          value={password}
          aria-invalid={problem === "wrong"}
          aria-describedby={problem ? errorId : undefined}
          onChange={(event) => setPassword(event.target.value)}
        />
        {problem ? (
          <p id={errorId} className="field-error" role="alert">
            {problem === "wrong"
              ? t({
                  id: "idle_wrong_password",
                  message: plural(attemptsLeft, {
                    one: "The password is incorrect. # attempt left.",
                    other: "The password is incorrect. # attempts left.",
                  }),
                })
              : t({
                  id: "idle_check_unavailable",
                  message: "The password could not be checked. Check the connection and try again.",
                })}
          </p>
        ) : null}
      </form>
    </Modal>
  );
}
