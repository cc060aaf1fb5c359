/**
 * The signature dialog of "Sign again" (sign-again-button.tsx), loaded when it opens: the queue
 * page is part of the app's first download, the signature dialog is not. An accepted password
 * revises the refused consent with its new proof and sends it (src/outbox/consent-resign.ts).
 */
import { useLingui } from "@lingui/react/macro";
import { consentIdOfItem, signConsentAgain, signerRoleOfConsentItem } from "../../outbox/consent-resign.ts";
import { SigningPasswordDialog, signingProofOf } from "../../survey/questions/signing-password-dialog.tsx";
import { TOAST_ERROR_MS, TOAST_SUCCESS_MS, showToast } from "../../widgets/toast/toast-store.ts";
import type { OutboxRequest } from "../../outbox/outbox-item.ts";

export type SignAgainDialogProps = {
  item: { id: string; participantId?: number | undefined; request: OutboxRequest };
  label: string;
  signer: { id: number; name: string };
  onClose: () => void;
};

export default function SignAgainDialog({ item, label, signer, onClose }: SignAgainDialogProps) {
  const { t } = useLingui();
  const consentId = consentIdOfItem(item);
  const participantId = item.participantId;
  return (
    <SigningPasswordDialog
      userId={signer.id}
      signerName={signer.name}
      role={signerRoleOfConsentItem(item)}
      {...(consentId !== undefined && participantId !== undefined && participantId > 0
        ? { signedFor: { consentId, participantId } }
        : {})}
      onAccepted={(accepted) => {
        onClose();
        void signConsentAgain(item.id, signingProofOf(accepted)).then(
          () =>
            showToast(
              t({ id: "outbox_signed_again", message: `Signed again: “${label}” is being sent.` }),
              "success",
              TOAST_SUCCESS_MS,
            ),
          () =>
            showToast(
              t({ id: "outbox_sign_again_failed", message: `“${label}” could not be signed again.` }),
              "error",
              TOAST_ERROR_MS,
            ),
        );
      }}
      onCancel={onClose}
    />
  );
}
