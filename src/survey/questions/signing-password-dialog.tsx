/**
 * The password re-entry at a clinician or witness signature (21 CFR 11.200). The typed password is encrypted to the server's signing key at once and checked
 * by the server, which records a refused try; offline, by this device's verifier, and a refused
 * try is queued for the server (src/auth/signing-attempt.ts). A wrong one says so, with the tries
 * left, and signs nothing; the fifth in a row ends the session. The page keeps only the
 * ciphertext, which the server checks again when the consent arrives.
 */
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { plural } from "@lingui/core/macro";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { logout } from "../../auth/logout.ts";
import { attemptSigning } from "../../auth/signing-attempt.ts";
import { MAX_SIGNING_ATTEMPTS } from "../../../core/contracts/signing-attempts.ts";
import { isUserSignerRole, type SignerRole } from "../../../core/contracts/roles.ts";
import { MEANING_TEXTS } from "./consent-signature-question.tsx";
import { Modal } from "../../widgets/modal/modal.tsx";
import { TextField } from "../../widgets/field/text-field.tsx";
import { RecordContext, type RecordFacts } from "../runner/record-context.tsx";
import { isoWithOffset } from "./consent-signature-model.ts";
import type { ConsentSigning } from "../../../core/contracts/consent-schemas.ts";

export type AcceptedSigning = { kid: string; passwordCiphertext: string; capturedAt: Date };

function deviceTimeZone() {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || isoWithOffset(new Date()).slice(-6);
}

/** The password proof a consent session carries (its `signing`), from an accepted signature. */
export function signingProofOf(accepted: AcceptedSigning): ConsentSigning {
  return {
    kid: accepted.kid,
    password_ciphertext: accepted.passwordCiphertext,
    captured_at: isoWithOffset(accepted.capturedAt),
    time_zone: deviceTimeZone(),
  };
}

/** The toast of the sign-out at the fifth wrong signing password. */
export const signingAttemptsExhaustedMessage = msg({
  id: "consent_signing_attempts_exhausted",
  message: `${MAX_SIGNING_ATTEMPTS} wrong passwords at a signature: you were signed out. Sign in again to sign. Nothing was signed.`,
});

export function SigningPasswordDialog(props: {
  userId: number;
  signerName: string;
  role: SignerRole;
  /** Whose consent is signed: the participant, subject id, study and site. */
  record?: RecordFacts;
  /** The consent and participant, for the server's record of a refused try (a server id only). */
  signedFor?: { consentId: number; participantId: number };
  onAccepted: (signing: AcceptedSigning) => void;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  const inputId = useId();
  const problemId = useId();
  const formId = useId();
  const [password, setPassword] = useState("");
  const [problem, setProblem] = useState<"wrong" | "unavailable" | "empty" | null>(null);
  const [attemptsLeft, setAttemptsLeft] = useState(MAX_SIGNING_ATTEMPTS);
  const [checking, setChecking] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  // The dialog is opened to type the password: its field takes the focus from the first button.
  useEffect(() => inputRef.current?.focus(), []);
  const meaning = t(MEANING_TEXTS[props.role]);
  const name = props.signerName;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (checking) return;
    if (password === "") {
      setProblem("empty");
      return;
    }
    if (!isUserSignerRole(props.role)) return;
    setChecking(true);
    try {
      const capturedAt = new Date();
      const signedFor = props.signedFor && props.signedFor.participantId > 0 ? props.signedFor : undefined;
      const result = await attemptSigning(
        { userId: props.userId, role: props.role, ...(signedFor ? { consent: signedFor } : {}) },
        password,
      );
      if (!result.ok && result.reason === "exhausted") {
        logout(signingAttemptsExhaustedMessage);
        return;
      }
      if (!result.ok) {
        if (result.reason === "wrong") setAttemptsLeft(result.attemptsLeft);
        setProblem(result.reason);
        setPassword("");
        // Back to the field (the Sign button was disabled while checking): type it again.
        setTimeout(() => inputRef.current?.focus(), 0);
        return;
      }
      props.onAccepted({ kid: result.kid, passwordCiphertext: result.passwordCiphertext, capturedAt });
    } finally {
      setChecking(false);
    }
  };

  const problemText =
    problem === "wrong"
      ? t({
          id: "consent_signing_password_wrong_left",
          message: plural(attemptsLeft, {
            one: "The password is not correct. Nothing was signed. Type your password again: one more wrong password signs you out.",
            other:
              "The password is not correct. Nothing was signed. Type your password again: # tries are left before you are signed out.",
          }),
        })
      : problem === "unavailable"
        ? t({
            id: "consent_signing_unavailable",
            message:
              "Signing is not set up on this device, and it cannot be set up without the network. Connect, then sign again. Nothing was signed.",
          })
        : problem === "empty"
          ? t({ id: "consent_signing_password_empty", message: "Type your password to sign." })
          : null;

  return (
    <Modal
      title={t({ id: "consent_signing_title", message: "Confirm your signature" })}
      onClose={props.onCancel}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={props.onCancel}>
            <Trans id="modal_cancel">Cancel</Trans>
          </button>
          <button type="submit" form={formId} className="button button--primary" disabled={checking}>
            <Trans id="consent_signing_confirm">Sign</Trans>
          </button>
        </>
      }
    >
      {props.record ? <RecordContext record={props.record} /> : null}
      <p>
        <Trans id="consent_signing_body">
          {name}, type your password to sign. Your signature means: {meaning}. It is the legally binding
          equivalent of your handwritten signature.
        </Trans>
      </p>
      <form id={formId} onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          label={<Trans id="consent_signing_password_label">Password</Trans>}
          id={inputId}
          className="input"
          type="password"
          autoComplete="current-password"
          ref={inputRef}
          value={password}
          aria-invalid={problemText ? true : undefined}
          aria-describedby={problemText ? problemId : undefined}
          onChange={(event) => {
            setPassword(event.target.value);
            if (problem === "empty") setProblem(null);
          }}
        />
        <p id={problemId} className="field-error" role="alert">
          {problemText}
        </p>
      </form>
    </Modal>
  );
}
