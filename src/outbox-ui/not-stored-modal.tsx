/**
 * The device refused to store a finished form in the outbox (a full disk, a private window that
 * refuses the write, a damaged database). Nothing was queued, so nothing will be sent:
 * the clinician is told at once and why, the answers stay on screen behind this dialog, and
 * they can try again or export the answers to a file (photos and signatures included).
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { Modal } from "../widgets/modal/modal.tsx";

export type NotStoredModalProps = {
  form: "instrument" | "consent";
  /** What the device said, as it said it. */
  reason: string;
  onRetry: () => Promise<void>;
  onExport: () => Promise<void>;
  onClose: () => void;
};

export function NotStoredModal({ form, reason, onRetry, onExport, onClose }: NotStoredModalProps) {
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      role="alertdialog"
      title={t({ id: "not_stored_heading", message: "Not saved on this device" })}
      onClose={onClose}
      actions={
        <>
          <button
            type="button"
            className="button button--primary"
            aria-disabled={busy}
            onClick={() => void run(onRetry)}
          >
            <Trans id="not_stored_retry">Try again</Trans>
          </button>
          <button
            type="button"
            className="button button--secondary"
            aria-disabled={busy}
            onClick={() => void run(onExport)}
          >
            <Trans id="survey_export_answers">Export the answers</Trans>
          </button>
          <button type="button" className="button button--secondary" onClick={onClose}>
            <Trans id="not_stored_close">Back to the answers</Trans>
          </button>
        </>
      }
    >
      <p>
        {form === "consent" ? (
          <Trans id="not_stored_consent_body">
            This device could not store the consent, so it has not been sent. The answers and signatures are
            still on screen.
          </Trans>
        ) : (
          <Trans id="not_stored_instrument_body">
            This device could not store the instrument, so it has not been sent. The answers are still on
            screen.
          </Trans>
        )}
      </p>
      <p>
        <Trans id="not_stored_next">
          Try again. If it fails again, export the answers to a file and give it to your study coordinator.
        </Trans>
      </p>
      <p>
        <Trans id="survey_draft_not_saved_reason">The device said: {reason}</Trans>
      </p>
    </Modal>
  );
}
