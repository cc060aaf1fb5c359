/**
 * The password re-entry at a clinician or witness signature (21 CFR 11.200; plan of issue 10,
 * "Part 11"). The typed password is checked against this device's verifier (also offline); a
 * wrong one says so and signs nothing. An accepted one is encrypted to the server's signing key
 * at once: the page keeps only the ciphertext, which the server checks again.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { fetchSigningKey } from "../../api/signing-key-api.ts";
import { checkSigningPassword } from "../../auth/signing-verifier.ts";
import type { SignerRole } from "../../../core/contracts/roles.ts";
import { MEANING_TEXTS } from "../../survey/questions/consent-signature-question.tsx";
import { Modal } from "../../widgets/modal/modal.tsx";
import { TextField } from "../../widgets/field/text-field.tsx";
import { RecordContext, type RecordFacts } from "../../survey/runner/record-context.tsx";

export type AcceptedSigning = { kid: string; passwordCiphertext: string; capturedAt: Date };

export function SigningPasswordDialog(props: {
  userId: number;
  signerName: string;
  role: SignerRole;
  /** Whose consent is signed: the participant, subject id, study and site. */
  record?: RecordFacts;
  onAccepted: (signing: AcceptedSigning) => void;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  const inputId = useId();
  const problemId = useId();
  const formId = useId();
  const [password, setPassword] = useState("");
  const [problem, setProblem] = useState<"wrong" | "unavailable" | "empty" | null>(null);
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
    setChecking(true);
    try {
      const capturedAt = new Date();
      const result = await checkSigningPassword(props.userId, password, () => fetchSigningKey());
      if (!result.ok) {
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
          id: "consent_signing_password_wrong",
          message: "The password is not correct. Nothing was signed. Type your password again.",
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
