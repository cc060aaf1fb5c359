import type { MessageDescriptor } from "@lingui/core";
import { useLingui } from "@lingui/react";
import { Trans } from "@lingui/react/macro";
import { useId } from "react";
import { PasswordChecklist } from "./password-checklist.tsx";
import { commonPasswordRefused } from "./password-messages.ts";
import { TextField } from "../../widgets/field/text-field.tsx";

type NewPasswordFieldsProps = {
  password: string;
  onPasswordChange: (value: string) => void;
  confirmation: string;
  onConfirmationChange: (value: string) => void;
  /** The form's error, shown under the confirmation and announced. */
  error: MessageDescriptor | string | null;
  /**
   * The password the server refused as too common (400 common_password): while the field still
   * holds it, the reason is shown under the five rules and announced.
   */
  refusedAsCommon?: string | null;
};

/**
 * The new password, its five-rule live checklist and its confirmation: the same on the forced
 * change, the change from the profile and the emailed set-password link.
 */
export function NewPasswordFields({
  password,
  onPasswordChange,
  confirmation,
  onConfirmationChange,
  error,
  refusedAsCommon = null,
}: NewPasswordFieldsProps) {
  const { i18n } = useLingui();
  const checklistId = useId();
  const commonId = useId();
  const errorId = useId();
  const common = refusedAsCommon !== null && refusedAsCommon === password;
  return (
    <>
      <TextField
        label={<Trans id="pw_new">New password</Trans>}
        id="new-password"
        type="password"
        autoComplete="new-password"
        aria-describedby={common ? `${checklistId} ${commonId}` : checklistId}
        aria-invalid={common || undefined}
        value={password}
        onChange={(event) => onPasswordChange(event.target.value)}
      />
      <PasswordChecklist id={checklistId} password={password} />
      {common ? (
        <p id={commonId} className="form-error" role="alert">
          {i18n._(commonPasswordRefused)}
        </p>
      ) : null}
      <TextField
        label={<Trans id="pw_confirm">Confirm new password</Trans>}
        id="confirm-password"
        type="password"
        autoComplete="new-password"
        aria-describedby={error ? errorId : undefined}
        value={confirmation}
        onChange={(event) => onConfirmationChange(event.target.value)}
      />
      {error ? (
        <p id={errorId} className="form-error" role="alert">
          {typeof error === "string" ? error : i18n._(error)}
        </p>
      ) : null}
    </>
  );
}
