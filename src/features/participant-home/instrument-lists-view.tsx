import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Link, useRouter } from "@tanstack/react-router";
import { lazy, Suspense, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { formsQuery, instancesQuery } from "../../api/instruments-api.ts";
import { ApiError } from "../../api/request.ts";
import { formatShortDate, formatTimeOfDay } from "../../i18n/format-date.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import type { WriteContext } from "../../outbox/enqueue.ts";
import { useOutboxItems } from "../../outbox-ui/use-outbox.ts";
import {
  formLists,
  instanceLists,
  listSourceFor,
  queuedRowKeys,
  type CompletedGroup,
  type InstrumentLists as Lists,
  type ListSource,
  type TodoRow,
} from "./instrument-lists.ts";
import { instrumentPath, sendReadEvent, sendTodoEvents } from "./instrument-navigation.ts";
import { LockIcon } from "../../widgets/access-denied/lock-icon.tsx";
import { LockedInstrumentModal } from "./locked-instrument-modal.tsx";
import type { ParticipantHomeProps } from "./participant-home-props.ts";
import { ParticipantAccessDenied } from "./participant-access-denied.tsx";
import { useNow } from "./use-now.ts";

/** What was submitted, read-only: loaded when a completed row is reviewed. */
const SubmissionReview = lazy(() =>
  import("./submission-review.tsx").then((module) => ({ default: module.SubmissionReview })),
);

type Props = ParticipantHomeProps & {
  architectureVersion: number | undefined;
  /** Consent first: the participant's required consent is not complete; nothing opens yet. */
  consentLocked: boolean;
};

/** The to-do and completed tabs, from the list source the study's architecture version picks. */
export function InstrumentLists(props: Props) {
  const source = listSourceFor(props.architectureVersion);
  return source === "instances" ? <InstancesLists {...props} /> : <FormsLists {...props} />;
}

function useRole(studyId: number) {
  const user = useStoredUser();
  return user?.permissions?.[String(studyId)]?.role;
}

function FormsLists(props: Props) {
  const query = useQuery(formsQuery(props.participantId, props.studyId));
  const role = useRole(props.studyId);
  const now = useNow();
  const lists = useMemo(
    () => (query.data ? formLists(query.data.instruments, role, now) : null),
    [query.data, role, now],
  );
  return <ListsState {...props} source="forms" lists={lists} error={query.error} />;
}

function InstancesLists(props: Props) {
  const { t } = useLingui();
  const query = useQuery(instancesQuery(props.participantId, props.studyId));
  const user = useStoredUser();
  const role = useRole(props.studyId);
  const now = useNow();
  const lists = useMemo(
    () => (query.data ? instanceLists(query.data.instruments, role, now) : null),
    [query.data, role, now],
  );
  // Delivered and visible events: once per instance per page visit (this mount), not per render.
  const sent = useRef(new Set<string>());
  const { studyId, siteId, participantId } = props;
  const { consentLocked } = props;
  useEffect(() => {
    // Before consent nothing is delivered to this participant: no events (the server refuses them).
    if (!lists || !user || consentLocked) return;
    void sendTodoEvents(
      lists.todo,
      { studyId, participantId },
      { userId: user.id, username: user.username, studyId, siteId, participantId },
      sent.current,
      t({ id: "outbox_label_instrument_events", message: "Instrument events" }),
    );
  }, [lists, user, studyId, siteId, participantId, t, consentLocked]);
  return <ListsState {...props} source="instances" lists={lists} error={query.error} />;
}

function ListsState({
  lists,
  error,
  source,
  ...props
}: Props & { lists: Lists | null; error: Error | null; source: ListSource }) {
  if (error instanceof ApiError && error.status === 403) return <ParticipantAccessDenied {...props} />;
  // Lists already on the device stay on screen when a refetch fails (the server away, offline).
  if (error && !lists) {
    return (
      <p className="empty-state" role="status">
        <Trans id="participant_lists_failed">The instruments could not be loaded. Try again later.</Trans>
      </p>
    );
  }
  if (!lists) {
    return (
      <p className="empty-state" role="status">
        <Trans id="participant_lists_loading">Loading instruments…</Trans>
      </p>
    );
  }
  return <InstrumentTabs {...props} lists={lists} source={source} />;
}

type TabKey = "todo" | "completed";
const TAB_ORDER: TabKey[] = ["todo", "completed"];

function InstrumentTabs({
  lists,
  source,
  studyId,
  siteId,
  participantId,
  consentLocked,
}: ParticipantHomeProps & { lists: Lists; source: ListSource; consentLocked: boolean }) {
  const { t } = useLingui();
  const router = useRouter();
  const user = useStoredUser();
  const baseId = useId();
  const [selected, setSelected] = useState<TabKey>("todo");
  const [locked, setLocked] = useState<TodoRow | null>(null);
  // A submission still on this device is waiting to send: its row cannot be started again.
  const outbox = useOutboxItems();
  const queued = useMemo(
    () => queuedRowKeys(lists.todo, outbox.data ?? [], participantId),
    [lists.todo, outbox.data, participantId],
  );
  const tabRefs = useRef<Record<TabKey, HTMLButtonElement | null>>({ todo: null, completed: null });
  const completedCount = lists.completed.reduce((total, group) => total + group.rows.length, 0);
  const todoCount = lists.todo.length;

  const label: Record<TabKey, string> = {
    todo: t({ id: "participant_tab_todo", message: `To do (${todoCount})` }),
    completed: t({ id: "participant_tab_completed", message: `Completed (${completedCount})` }),
  };

  const onTabKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = TAB_ORDER.indexOf(selected);
    const next =
      event.key === "ArrowRight"
        ? TAB_ORDER[(index + 1) % TAB_ORDER.length]
        : event.key === "ArrowLeft"
          ? TAB_ORDER[(index - 1 + TAB_ORDER.length) % TAB_ORDER.length]
          : event.key === "Home"
            ? TAB_ORDER[0]
            : event.key === "End"
              ? TAB_ORDER[TAB_ORDER.length - 1]
              : undefined;
    if (!next) return;
    event.preventDefault();
    setSelected(next);
    tabRefs.current[next]?.focus();
  };

  /** Opens an instrument the user may administer (after a read event in the newer architecture). */
  const openInstrument = async (row: TodoRow) => {
    if (source === "instances" && user) {
      const write: WriteContext = {
        userId: user.id,
        username: user.username,
        studyId,
        siteId,
        participantId,
      };
      await sendReadEvent(
        row,
        { studyId, participantId },
        write,
        t({ id: "outbox_label_instrument_events", message: "Instrument events" }),
      );
    }
    router.history.push(instrumentPath(studyId, siteId, participantId, row));
  };

  return (
    <section
      className="instrument-tabs"
      aria-label={t({ id: "participant_instruments_label", message: "Instruments" })}
    >
      <div className="instrument-tabs__list" role="tablist">
        {TAB_ORDER.map((key) => (
          <button
            key={key}
            ref={(element) => {
              tabRefs.current[key] = element;
            }}
            type="button"
            role="tab"
            id={`${baseId}-${key}-tab`}
            aria-controls={`${baseId}-${key}-panel`}
            aria-selected={selected === key}
            tabIndex={selected === key ? 0 : -1}
            className="instrument-tabs__tab"
            onClick={() => setSelected(key)}
            onKeyDown={onTabKeyDown}
          >
            {label[key]}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${baseId}-todo-panel`}
        aria-labelledby={`${baseId}-todo-tab`}
        hidden={selected !== "todo"}
        tabIndex={0}
        className="instrument-tabs__panel"
      >
        <TodoList
          rows={lists.todo}
          queued={queued}
          consentLocked={consentLocked}
          onOpen={(row) => (row.locked ? setLocked(row) : void openInstrument(row))}
        />
      </div>
      <div
        role="tabpanel"
        id={`${baseId}-completed-panel`}
        aria-labelledby={`${baseId}-completed-tab`}
        hidden={selected !== "completed"}
        tabIndex={0}
        className="instrument-tabs__panel"
      >
        <CompletedList groups={lists.completed} participantId={participantId} />
      </div>
      {locked ? (
        <LockedInstrumentModal
          row={locked}
          studyId={studyId}
          siteId={siteId}
          participantId={participantId}
          onClose={() => setLocked(null)}
          onPermitted={(row) => {
            setLocked(null);
            void openInstrument(row);
          }}
        />
      ) : null}
    </section>
  );
}

function TodoList({
  rows,
  queued,
  consentLocked,
  onOpen,
}: {
  rows: TodoRow[];
  queued: ReadonlySet<string>;
  consentLocked: boolean;
  onOpen: (row: TodoRow) => void;
}) {
  if (rows.length === 0) {
    return (
      <p className="empty-state">
        <Trans id="participant_todo_empty">Nothing to complete right now.</Trans>
      </p>
    );
  }
  return (
    <ul className="instrument-list">
      {rows.map((row) => (
        <li key={row.key}>
          {queued.has(row.key) ? (
            <QueuedRow row={row} />
          ) : consentLocked ? (
            <ConsentLockedRow row={row} />
          ) : (
            <button
              type="button"
              className={`instrument-row${row.locked ? " instrument-row--locked" : ""}`}
              onClick={() => onOpen(row)}
            >
              <span className="instrument-row__name">{row.name}</span>
              {row.locked ? (
                <span className="instrument-row__lock">
                  <LockIcon />
                  <span className="visually-hidden">
                    <Trans id="participant_row_locked">
                      (locked: you don't have permission to administer it)
                    </Trans>
                  </span>
                </span>
              ) : (
                <span className="instrument-row__chevron" aria-hidden="true">
                  ›
                </span>
              )}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

/** An instrument of a participant whose required consent is not complete: shown, not opened. */
function ConsentLockedRow({ row }: { row: TodoRow }) {
  return (
    <div className="instrument-row instrument-row--locked">
      <span className="instrument-row__name">{row.name}</span>
      <span className="instrument-row__lock">
        <LockIcon />
        <span className="visually-hidden">
          <Trans id="participant_row_consent_locked">(locked: the participant's consent comes first)</Trans>
        </span>
      </span>
    </div>
  );
}

/** A form finished on this device whose submission waits in the outbox: not a form to start. */
function QueuedRow({ row }: { row: TodoRow }) {
  return (
    <div className="instrument-row instrument-row--queued">
      <span className="instrument-row__name">{row.name}</span>
      <span className="instrument-row__queued">
        <Trans id="participant_row_queued">Completed · waiting to send</Trans>
      </span>
      <Link className="instrument-row__queue-link" to="/outbox">
        <Trans id="participant_row_queue_link">See the queue</Trans>
      </Link>
    </div>
  );
}

function CompletedList({ groups, participantId }: { groups: CompletedGroup[]; participantId: number }) {
  const [reviewing, setReviewing] = useState<CompletedGroup["rows"][number] | null>(null);
  if (groups.length === 0) {
    return (
      <p className="empty-state">
        <Trans id="participant_completed_empty">No completed instruments yet.</Trans>
      </p>
    );
  }
  return (
    <div className="completed-groups">
      {groups.map((group) => (
        <section key={group.day} className="completed-group">
          <h2 className="completed-group__heading">{formatShortDate(group.day)}</h2>
          <ul className="completed-list">
            {group.rows.map((row) => (
              <li key={row.key} className="completed-row">
                <span className="completed-row__name">{row.name}</span>
                {row.completedAt ? (
                  <>
                    <CompletionDetail completedAt={row.completedAt} completedBy={row.completedBy} />
                    <button
                      type="button"
                      className="link-button completed-row__review"
                      onClick={() => setReviewing(row)}
                    >
                      <Trans id="participant_completed_review">Review</Trans>
                      <span className="visually-hidden"> {row.name}</span>
                    </button>
                  </>
                ) : (
                  <span className="completed-row__expired">
                    <Trans id="participant_expired">Expired</Trans>
                  </span>
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
      {reviewing ? (
        <Suspense fallback={null}>
          <SubmissionReview
            participantId={participantId}
            instrumentId={reviewing.instrumentId}
            instanceId={reviewing.instanceId}
            name={reviewing.name}
            onClose={() => setReviewing(null)}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

function CompletionDetail({ completedAt, completedBy }: { completedAt: string; completedBy: string | null }) {
  const { t } = useLingui();
  const time = formatTimeOfDay(completedAt);
  const completer = completedBy ?? t({ id: "participant_completer_unknown", message: "unknown" });
  return (
    <span className="completed-row__detail">
      {t({ id: "participant_completed_at_by", message: `Completed at ${time} by ${completer}` })}
    </span>
  );
}
