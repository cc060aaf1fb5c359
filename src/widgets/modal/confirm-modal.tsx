/**
 * A confirmation built on the Modal: its buttons are Cancel and Confirm unless the caller names
 * them (spec 02 section 9, default modal buttons).
 */
import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Modal } from "./modal.tsx";

export type ConfirmModalProps = {
  title: ReactNode;
  children: ReactNode;
  onCancel: () => void;
  onConfirm: () => void;
  cancelText?: ReactNode;
  confirmText?: ReactNode;
  /** A confirmation that deletes or discards shows a danger button. */
  destructive?: boolean;
};

export function ConfirmModal({
  title,
  children,
  onCancel,
  onConfirm,
  cancelText,
  confirmText,
  destructive = false,
}: ConfirmModalProps) {
  return (
    <Modal
      title={title}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onCancel}>
            {cancelText ?? <Trans id="widget_modal_cancel">Cancel</Trans>}
          </button>
          <button
            type="button"
            className={destructive ? "button button--danger" : "button button--primary"}
            onClick={onConfirm}
          >
            {confirmText ?? <Trans id="widget_modal_confirm">Confirm</Trans>}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
