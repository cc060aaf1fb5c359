import { Trans, useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { instrumentListKeys } from "../../api/instruments-api.ts";
import { participantQuery } from "../../api/participants-api.ts";
import { FORCED_CHANGE_PATH } from "../../auth/guards.ts";
import { getStoredUser } from "../../auth/session-store.ts";
import { showToast, TOAST_SESSION_MS } from "../../widgets/toast/toast-store.ts";
import { Modal } from "../../widgets/modal/modal.tsx";
import { msg } from "@lingui/core/macro";
import { AccessDeniedPanel } from "../../widgets/access-denied/access-denied-panel.tsx";
import { isPermitted } from "../../../core/contracts/instrument-permission.ts";
import type { TodoRow } from "./instrument-lists.ts";
import { SignInAnotherAccount } from "./sign-in-another-account.tsx";

const noStudyAccessMessage = msg({
  id: "access_denied_no_study_access",
  message: "This account has no access to this study.",
});

type Props = {
  row: TodoRow;
  studyId: number;
  siteId: number;
  participantId: number;
  onClose: () => void;
  /** The account now signed in may administer the instrument: open it. */
  onPermitted: (row: TodoRow) => void;
};

/**
 * Opening a locked instrument (spec 01 section 4): the login modal with the access-denied panel.
 * After signing in with another account the study access is rechecked: none → /studies with a
 * message; permitted now → the instrument opens; otherwise the still-no-permission message.
 */
export function LockedInstrumentModal({ row, studyId, siteId, participantId, onClose, onPermitted }: Props) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  const name = row.name;

  const afterSignIn = async ({ temporaryPassword }: { temporaryPassword: boolean }) => {
    if (temporaryPassword) {
      await navigate({ to: FORCED_CHANGE_PATH });
      return;
    }
    const permission = getStoredUser()?.permissions?.[String(studyId)];
    if (!permission) {
      showToast(noStudyAccessMessage, "error", TOAST_SESSION_MS);
      await navigate({ to: "/studies" });
      return;
    }
    try {
      await queryClient.fetchQuery({ ...participantQuery(studyId, siteId, participantId), staleTime: 0 });
    } catch {
      await navigate({ to: "/studies" });
      return;
    }
    await queryClient.invalidateQueries({ queryKey: instrumentListKeys.all });
    if (isPermitted(row.permissions, permission.role)) {
      onPermitted({ ...row, locked: false });
    } else {
      setNotice(
        t({
          id: "access_denied_still_no_permission",
          message: `This account doesn't have permission to administer ${name} either.`,
        }),
      );
    }
  };

  const message = t({
    id: "access_denied_instrument",
    message: `It looks like you don't have permission to administer ${name}`,
  });
  return (
    <Modal
      title={<Trans id="access_denied_title">Permission needed</Trans>}
      onClose={onClose}
      className="modal--access-denied"
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose}>
            <Trans id="access_denied_return_to_participant">Return to participant</Trans>
          </button>
          <Link className="button button--secondary" to="/studies">
            <Trans id="back_to_studies">Back to studies</Trans>
          </Link>
        </>
      }
    >
      <AccessDeniedPanel message={message} headingLevel={null} actions={null}>
        <SignInAnotherAccount onSignedIn={afterSignIn} notice={notice} />
      </AccessDeniedPanel>
    </Modal>
  );
}
