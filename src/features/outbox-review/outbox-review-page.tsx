import { useLingui as useLinguiRuntime } from "@lingui/react";
import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { participantQuery } from "../../api/participants-api.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import { retryNow } from "../../outbox/flusher.ts";
import { removeItem } from "../../outbox/outbox-store.ts";
import type { StorageStatus } from "../../outbox/persistent-storage.ts";
import { useOutboxItems } from "../../outbox-ui/use-outbox.ts";
import { Modal } from "../../widgets/modal/modal.tsx";
import { TOAST_ERROR_MS, TOAST_SUCCESS_MS, showToast } from "../../widgets/toast/toast-store.ts";
import { downloadJson } from "../../widgets/download/download-json.ts";
import { exportFileName, exportOutboxItem } from "./export-item.ts";
import { formatBytes } from "./format-item.ts";
import { OutboxItemCard } from "./outbox-item-card.tsx";
import { storageStatusQuery } from "../../outbox-ui/storage-status-query.ts";
import { UnreadableRecordsPanel } from "./unreadable-records-panel.tsx";
import {
  hiddenWaitingOfOthers,
  idsToRetry,
  isCoordinator,
  visibleOutboxGroups,
  type ReviewItem,
} from "./visible-items.ts";
import { mayBeCleared, runsInstalled } from "../../outbox/persistent-storage.ts";
import { KeepDataAdvice } from "../../outbox-ui/keep-data-advice.tsx";
import { belongsToForm, summarizeUnsent, unsentList, unsentTotal } from "../../outbox-ui/unsent-summary.ts";
import { cachedParticipant, enrolledHere, leftTheQueue, type ParticipantWords } from "./queue-words.ts";
import "./outbox-review.css";

function StorageStatusPanel({ status }: { status: StorageStatus | undefined }) {
  const { t } = useLingui();
  const { i18n } = useLinguiRuntime();
  const headingId = useId();
  const used = status?.usageBytes === undefined ? "" : formatBytes(status.usageBytes, i18n.locale);
  const quota = status?.quotaBytes === undefined ? "" : formatBytes(status.quotaBytes, i18n.locale);
  const persisted =
    status?.persisted === true
      ? t({
          id: "outbox_storage_persisted",
          message: "Persistent storage granted: the browser will not clear queued items to free space.",
        })
      : status?.persisted === false
        ? t({
            id: "outbox_storage_not_persisted",
            message:
              "Persistent storage not granted: the browser may clear stored data when the device runs low on space. Send queued items as soon as you can.",
          })
        : t({
            id: "outbox_storage_unknown",
            message: "This browser does not say whether its storage is persistent.",
          });
  const usage =
    used && quota
      ? t({ id: "outbox_storage_usage", message: `Storage used: ${used} of ${quota}` })
      : t({
          id: "outbox_storage_usage_unknown",
          message: "This browser does not report how much storage is used.",
        });
  return (
    <section
      className={`storage-status${status?.persisted === false ? " storage-status--warning" : ""}`}
      aria-labelledby={headingId}
    >
      <h2 id={headingId} className="storage-status__heading">
        <Trans id="outbox_storage_heading">Storage on this device</Trans>
      </h2>
      {status ? (
        <>
          <p>{persisted}</p>
          <p>{usage}</p>
          {mayBeCleared(status, runsInstalled()) ? <KeepDataAdvice /> : null}
        </>
      ) : (
        <p>
          <Trans id="outbox_storage_loading">Checking storage…</Trans>
        </p>
      )}
    </section>
  );
}

/**
 * /outbox: every write waiting on this device, grouped by participant, with how sending went.
 * A coordinator sees every user's items (metadata only for others); everyone else their own.
 * A refused item of one's own can be exported as JSON and then discarded, after confirming.
 */
export function OutboxReviewPage() {
  const { t, i18n } = useLingui();
  const user = useStoredUser();
  const outbox = useOutboxItems();
  const storage = useQuery(storageStatusQuery());
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [discarding, setDiscarding] = useState<ReviewItem | null>(null);
  const [retryingAll, setRetryingAll] = useState(false);

  const viewer = user ? { userId: user.id, permissions: user.permissions } : undefined;
  const groups = viewer ? visibleOutboxGroups(outbox.data ?? [], viewer) : [];
  const visible = groups.flatMap((group) => group.items);
  const retryable = idsToRetry(groups);
  // Another user's work on this shared device: said, never shown (visible-items.ts).
  const othersWaiting = viewer ? hiddenWaitingOfOthers(outbox.data ?? [], viewer) : 0;
  // Counted as a coordinator counts: a form with its photos and signatures is one.
  const waiting = summarizeUnsent(visible.filter((item) => item.state !== "failed"));
  const refused = summarizeUnsent(visible.filter((item) => item.state === "failed"));
  const waitingCount = unsentTotal(waiting);
  const refusedCount = unsentTotal(refused);

  // What left the queue while the page is open, other than by Discard: the server has it.
  const queryClient = useQueryClient();
  const discarded = useRef(new Set<string>());
  const previous = useRef<ReviewItem[] | undefined>(undefined);
  const [sent, setSent] = useState<ReviewItem[]>([]);
  const sentIds = useRef(new Set<string>());
  const loaded = outbox.data !== undefined && viewer !== undefined;
  useEffect(() => {
    if (!loaded) return;
    const before = previous.current;
    previous.current = visible;
    if (!before) return;
    const left = leftTheQueue(before, visible, discarded.current, sentIds.current);
    if (left.length === 0) return;
    left.forEach((item) => sentIds.current.add(item.id));
    setSent((earlier) => [...earlier, ...left]);
    // Re-run on every outbox change (dataUpdatedAt), not on each render's new array.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, outbox.dataUpdatedAt]);
  const sentSummary = summarizeUnsent(sent);
  const sentList = unsentList(sentSummary, i18n);
  const waitingList = unsentList(waiting, i18n);
  const refusedList = unsentList(refused, i18n);

  // Whose items each group holds: the participant's name and subject id where this device knows them.
  const participantIds = groups.flatMap((group) =>
    group.participantId !== undefined && group.participantId > 0 ? [group] : [],
  );
  const fetched = useQueries({
    queries: participantIds.map((group) => {
      const located = group.items.find((item) => item.studyId !== undefined && item.siteId !== undefined);
      return {
        ...participantQuery(located?.studyId ?? 0, located?.siteId ?? 0, group.participantId ?? 0),
        enabled: located !== undefined,
        retry: false,
      };
    }),
  });
  const participantWords = (participantId: number): ParticipantWords | undefined => {
    const index = participantIds.findIndex((group) => group.participantId === participantId);
    const data = index >= 0 ? fetched[index]?.data : undefined;
    if (data) return { name: `${data.fname} ${data.lname}`.trim(), subjectId: data.subject_id };
    return cachedParticipant(queryClient, participantId) ?? enrolledHere(visible, participantId);
  };

  const retryAll = async () => {
    if (retryingAll) return;
    setRetryingAll(true);
    try {
      await retryNow(retryable);
    } finally {
      setRetryingAll(false);
      // The button leaves with the last item it could retry: keep the focus on the page.
      requestAnimationFrame(() => {
        if (document.activeElement === document.body) headingRef.current?.focus();
      });
    }
  };

  const exportItem = async (item: ReviewItem) => {
    try {
      const fileName = exportFileName(item);
      downloadJson(fileName, await exportOutboxItem(item));
      showToast(
        t({ id: "outbox_exported", message: `Exported as ${fileName}` }),
        "success",
        TOAST_SUCCESS_MS,
      );
    } catch {
      showToast(
        t({ id: "outbox_export_failed", message: "The item could not be exported." }),
        "error",
        TOAST_ERROR_MS,
      );
    }
  };

  const confirmDiscard = async () => {
    if (!discarding) return;
    discarded.current.add(discarding.id);
    await removeItem(discarding.id);
    setDiscarding(null);
    showToast(t({ id: "outbox_discarded", message: "The item was discarded." }), "success", TOAST_SUCCESS_MS);
  };

  const discardLabel = discarding?.label ?? "";

  /** A file that goes with a form waiting here: that form's name. */
  const formOf = (item: ReviewItem) =>
    belongsToForm(item, visible)
      ? visible.find((form) => form.kind !== "upload" && form.dependsOn.includes(item.id))?.label
      : undefined;

  return (
    <div className="page outbox-page">
      <div className="outbox-page__header">
        <h1 tabIndex={-1} ref={headingRef}>
          <Trans id="outbox_heading">Queued uploads</Trans>
        </h1>
        {retryable.length > 0 ? (
          <button
            type="button"
            className="button button--primary"
            aria-disabled={retryingAll}
            onClick={() => void retryAll()}
          >
            {retryingAll ? (
              <Trans id="outbox_retrying_all">Retrying…</Trans>
            ) : (
              <Trans id="outbox_retry_all">Retry all</Trans>
            )}
          </button>
        ) : null}
      </div>
      <p className="lead">
        <Trans id="outbox_lead">
          Everything made on this device stays here until the server has stored it. Items are sent
          automatically when the connection is back.
        </Trans>
      </p>
      {viewer && isCoordinator(viewer.permissions) ? (
        <p className="outbox-page__scope">
          <Trans id="outbox_scope_coordinator">
            As a coordinator you see the items of every user of this device; for other users' items only their
            details are shown.
          </Trans>
        </p>
      ) : null}

      <StorageStatusPanel status={storage.data} />
      <UnreadableRecordsPanel viewerId={user?.id} />

      <p className="outbox-page__sent" role="status" hidden={sent.length === 0}>
        {sent.length > 0 ? t({ id: "outbox_sent_confirmation", message: `Sent: ${sentList}.` }) : ""}
      </p>

      <p className="outbox-page__summary" role="status">
        {waitingCount > 0
          ? t({ id: "outbox_summary_waiting_list", message: `Waiting to be sent: ${waitingList}.` })
          : ""}
        {waitingCount > 0 && refusedCount > 0 ? " " : ""}
        {refusedCount > 0
          ? t({ id: "outbox_summary_failed_list", message: `Failed, refused by the server: ${refusedList}.` })
          : ""}
      </p>

      {othersWaiting > 0 ? (
        <p className="outbox-page__others" role="status">
          {t({
            id: "outbox_others_waiting",
            message: plural(othersWaiting, {
              one: "# item made by another user on this device is still waiting to be sent. Only they can see it; it is sent with their own sign-in.",
              other:
                "# items made by other users on this device are still waiting to be sent. Only they can see them; each is sent with its own user's sign-in.",
            }),
          })}
        </p>
      ) : null}

      {outbox.isPending ? (
        <p className="empty-state">
          <Trans id="outbox_loading">Reading the queue…</Trans>
        </p>
      ) : groups.length === 0 && othersWaiting > 0 ? (
        <p className="empty-state">
          <Trans id="outbox_empty_own">
            Nothing of yours is waiting to be sent: everything you made on this device has reached the server.
          </Trans>
        </p>
      ) : groups.length === 0 ? (
        <p className="empty-state">
          <Trans id="outbox_empty">
            Nothing is waiting to be sent: everything made on this device has reached the server.
          </Trans>
        </p>
      ) : (
        groups.map((group) => {
          const participantId = group.participantId;
          const words = participantId === undefined ? undefined : participantWords(participantId);
          const subjectId = words?.subjectId ?? "";
          return (
            <section key={participantId ?? "none"} className="outbox-group">
              <h2 className="outbox-group__heading">
                {participantId === undefined ? (
                  <Trans id="outbox_no_participant">No participant</Trans>
                ) : words?.name ? (
                  <>
                    {words.name}
                    {words.subjectId ? (
                      <>
                        {" "}
                        <span className="outbox-group__subject">
                          <Trans id="outbox_participant_subject">(subject {subjectId})</Trans>
                        </span>
                      </>
                    ) : null}
                  </>
                ) : (
                  <Trans id="outbox_participant">Participant {participantId}</Trans>
                )}
              </h2>
              <ul className="outbox-list">
                {group.items.map((item) => (
                  <OutboxItemCard
                    key={item.id}
                    item={item}
                    formLabel={formOf(item)}
                    sendingAll={retryingAll}
                    onExport={(chosen) => void exportItem(chosen)}
                    onDiscard={setDiscarding}
                  />
                ))}
              </ul>
            </section>
          );
        })
      )}

      {discarding ? (
        <Modal
          title={t({ id: "outbox_discard_heading", message: "Discard this item?" })}
          onClose={() => setDiscarding(null)}
          returnFocusTo={headingRef}
          actions={
            <>
              <button type="button" className="button button--secondary" onClick={() => setDiscarding(null)}>
                <Trans id="modal_cancel">Cancel</Trans>
              </button>
              <button type="button" className="button button--danger" onClick={() => void confirmDiscard()}>
                <Trans id="modal_confirm">Confirm</Trans>
              </button>
            </>
          }
        >
          <p>
            <Trans id="outbox_discard_body">
              “{discardLabel}” was refused by the server and will be removed from this device. It cannot be
              sent afterwards. Export it first if it may be needed.
            </Trans>
          </p>
        </Modal>
      ) : null}
    </div>
  );
}
