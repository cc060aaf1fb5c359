/**
 * The submit modals of spec 02 for a screen that submitted through the outbox. Given the
 * submission's outbox id, it observes the submission and the uploads it waits for, and shows:
 * the failed-files modal (Retry sends only the failed uploads; the submission follows by
 * itself), the network error modal (Retry sends the submission again), or the refused modal.
 * It calls onDelivered once the submission has left the outbox, i.e. the server stored it.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Modal } from "../widgets/modal/modal.tsx";
import { retryNow } from "../outbox/flusher.ts";
import { outboxKeys, useOutboxItems } from "./use-outbox.ts";
import { submissionProblem } from "./submission-problem.ts";

export type SubmissionStatusModalProps = {
  /** The outbox id of the submission (what enqueueSubmissionWithUploads returned). */
  submissionId: string;
  /** Which texts: the clinician instrument's (default) or the consent's. */
  form?: "instrument" | "consent";
  /** The submission reached the server; called once. */
  onDelivered: () => void;
  /**
   * The user leaves the submission queued ("Send later", Escape) or acknowledges a refusal. The
   * submission stays in the outbox either way.
   */
  onClose: () => void;
  /** A send failed (network, files or refusal); called on each new kind of problem. */
  onProblem?: (kind: "network" | "failed-files" | "refused") => void;
};

function RetryButton({ ids }: { ids: readonly string[] }) {
  const [retrying, setRetrying] = useState(false);
  const retry = async () => {
    if (retrying) return;
    setRetrying(true);
    try {
      await retryNow(ids);
    } finally {
      setRetrying(false);
    }
  };
  return (
    // aria-disabled rather than disabled: the button keeps the focus while the retry runs.
    <button
      type="button"
      className="button button--primary"
      aria-disabled={retrying}
      onClick={() => void retry()}
    >
      {retrying ? <Trans id="submit_retrying">Retrying…</Trans> : <Trans id="submit_retry">Retry</Trans>}
    </button>
  );
}

function SendLaterButton({ onClose }: { onClose: () => void }) {
  return (
    <button type="button" className="button button--secondary" onClick={onClose}>
      <Trans id="submit_send_later">Send later</Trans>
    </button>
  );
}

export function SubmissionStatusModal({
  submissionId,
  form = "instrument",
  onDelivered,
  onClose,
  onProblem,
}: SubmissionStatusModalProps) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const { data, dataUpdatedAt } = useOutboxItems();
  const [mountedAt] = useState(() => Date.now());
  const delivered = useRef(false);

  // Read the outbox afresh: a list read before the submission was enqueued must not pass for
  // "delivered".
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: outboxKeys.all, exact: true });
  }, [queryClient]);

  const problem = submissionProblem(submissionId, data, dataUpdatedAt >= mountedAt);

  useEffect(() => {
    if (problem.kind !== "delivered" || delivered.current) return;
    delivered.current = true;
    onDelivered();
  }, [problem.kind, onDelivered]);

  useEffect(() => {
    if (problem.kind === "network" || problem.kind === "failed-files" || problem.kind === "refused") {
      onProblem?.(problem.kind);
    }
  }, [problem.kind, onProblem]);

  const savedOnDevice = (
    <p>
      <Trans id="submit_saved_on_device">
        Your answers are saved on this device. If you choose Send later, they are sent automatically when the
        connection is back.
      </Trans>
    </p>
  );

  if (problem.kind === "failed-files") {
    return (
      <Modal
        role="alertdialog"
        title={t({ id: "submit_files_heading", message: "Files not uploaded" })}
        onClose={onClose}
        actions={
          <>
            <RetryButton ids={problem.uploads.map((upload) => upload.id)} />
            <SendLaterButton onClose={onClose} />
          </>
        }
      >
        <p>
          {form === "consent" ? (
            <Trans id="submit_files_consent">
              There was a problem uploading the consent files, check your internet connection and click the
              button to try again. Only the files that did not upload are sent again.
            </Trans>
          ) : (
            <Trans id="submit_files_instrument">
              There was a problem uploading the instrument files, check your internet connection and click the
              button to try again. Only the files that did not upload are sent again.
            </Trans>
          )}
        </p>
        <ul
          className="modal__list"
          aria-label={t({ id: "submit_files_list", message: "Files not uploaded" })}
        >
          {problem.uploads.map((upload) => (
            <li key={upload.id}>{upload.label}</li>
          ))}
        </ul>
        {savedOnDevice}
      </Modal>
    );
  }

  if (problem.kind === "network") {
    return (
      <Modal
        role="alertdialog"
        title={t({ id: "submit_network_heading", message: "Network error" })}
        onClose={onClose}
        actions={
          <>
            <RetryButton ids={[...(problem.waitsFor ?? []).map((item) => item.id), submissionId]} />
            <SendLaterButton onClose={onClose} />
          </>
        }
      >
        <p>
          {form === "consent" ? (
            <Trans id="submit_network_consent">
              There was a problem submitting the consent, check your internet connection and click the button
              to try again.
            </Trans>
          ) : (
            <Trans id="submit_network_instrument">
              There was a problem submitting the clinician instrument, check your internet connection and
              click the button to try again.
            </Trans>
          )}
        </p>
        {savedOnDevice}
      </Modal>
    );
  }

  if (problem.kind === "refused") {
    const reason = problem.submission.lastError?.message ?? "";
    return (
      <Modal
        role="alertdialog"
        title={t({ id: "submit_refused_heading", message: "Submission not accepted" })}
        onClose={onClose}
        actions={
          <button type="button" className="button button--primary" onClick={onClose}>
            <Trans id="submit_close">Close</Trans>
          </button>
        }
      >
        <p>
          <Trans id="submit_refused_body">
            The server did not accept this submission: {reason}. It is kept on this device and is not sent
            again by itself; it can be reviewed under Queued uploads.
          </Trans>
        </p>
      </Modal>
    );
  }

  return null;
}
