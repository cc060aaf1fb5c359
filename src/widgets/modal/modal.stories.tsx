import type { Story, StoryDefault } from "@ladle/react";
import { ConfirmModal } from "./confirm-modal.tsx";
import { Modal } from "./modal.tsx";

export default { title: "Widgets / Modal" } satisfies StoryDefault;

export const DefaultButtons: Story = () => (
  <ConfirmModal title="Quit the instrument?" onCancel={() => undefined} onConfirm={() => undefined}>
    The answers given so far will be lost.
  </ConfirmModal>
);
export const NamedButtons: Story = () => (
  <ConfirmModal
    title="Delete the photo?"
    destructive
    confirmText="Delete"
    cancelText="Keep"
    onCancel={() => undefined}
    onConfirm={() => undefined}
  >
    The photo will be removed from the answer.
  </ConfirmModal>
);
export const ErrorAlert: Story = () => (
  <Modal
    role="alertdialog"
    title="Network error"
    actions={
      <button type="button" className="button button--primary">
        Retry
      </button>
    }
  >
    There was a problem submitting the clinician instrument, check your internet connection and click the
    button to try again.
  </Modal>
);
