/**
 * /inbox (spec 02 section 2): the announcements from the study teams, newest first, each with
 * its sender, sent date (last-message style), title and expandable content; unread ones carry a
 * dot. Fetched only when the selected study is not of the newer instrument architecture; in a
 * study of the newer one the inbox lists that study's ANNOUNCEMENT instruments instead, each
 * once, opened the same way and marked read by a read event naming the instrument. The
 * empty state shows two messages and the mascot; the announcements onboarding card shows until
 * the user dismisses it. Coordinators and administrators find the way to write one here.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useCallback, useState } from "react";
import {
  markInstrumentReadInCache,
  markReadInCache,
  useDismissOnboarding,
  useInboxAnnouncements,
  useOnboarding,
} from "../../api/announcements-api.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import type { Announcement, AnnouncementInstrument } from "../../../core/contracts/announcements.ts";
import { eventsWrite } from "../../outbox/enqueue.ts";
import { enqueueEvent } from "../../outbox-ui/enqueue-event.ts";
import { Mascot } from "../../widgets/mascot/mascot.tsx";
import { OnboardingCard } from "../../widgets/onboarding-card/onboarding-card.tsx";
import { AnnouncementItem } from "./announcement-item.tsx";
import { mayWriteAnnouncements } from "./authoring.ts";
import "./inbox.css";

/** An announcement instrument in the shape an inbox item shows: sent by the study team, to every site. */
function asAnnouncement(item: AnnouncementInstrument): Announcement {
  return {
    id: item.instrument_id,
    sent: item.sent,
    read: item.read,
    title: item.title,
    content: item.content,
    sender: "",
    study_id: item.study_id,
    study_name: item.study_name,
    site_id: null,
    site_label: null,
  };
}

export type InboxPageProps = {
  /** The study chosen on the studies page, if any: its architecture version decides the fetch. */
  selectedStudyId?: number;
};

export function InboxPage({ selectedStudyId }: InboxPageProps) {
  const { t } = useLingui();
  const user = useStoredUser();
  const queryClient = useQueryClient();
  const { query, announcements, skipped, studyName, instrumentQuery, instrumentAnnouncements } =
    useInboxAnnouncements(selectedStudyId);
  const onboarding = useOnboarding();
  const dismiss = useDismissOnboarding();
  const [now] = useState(() => new Date());

  /** Queues the read event of an announcement the user opens; the outbox sends it. */
  const queueReadEvent = useCallback(
    (info: { announcement_id: number } | { instrument_id: number }, studyId: number, title: string) => {
      if (!user) return;
      const event = {
        type: "read" as const,
        timestamp: new Date().toISOString(),
        info: { ...info, study_id: studyId },
        study_id: studyId,
      };
      const label = t({ id: "inbox_read_event_label", message: `Announcement read: ${title}` });
      void enqueueEvent(eventsWrite([event], label), {
        userId: user.id,
        username: user.username,
        studyId,
      });
    },
    [t, user],
  );

  const openAnnouncement = useCallback(
    (announcement: Announcement) => {
      if (announcement.read || !user) return;
      markReadInCache(queryClient, announcement.id);
      queueReadEvent({ announcement_id: announcement.id }, announcement.study_id, announcement.title);
    },
    [queryClient, queueReadEvent, user],
  );

  const openInstrumentAnnouncement = useCallback(
    (announcement: AnnouncementInstrument) => {
      if (announcement.read || !user) return;
      markInstrumentReadInCache(queryClient, announcement.study_id, announcement.instrument_id);
      // An announcement delivered as an instrument is read as the instrument, with no participant.
      queueReadEvent(
        { instrument_id: announcement.instrument_id },
        announcement.study_id,
        announcement.title,
      );
    },
    [queryClient, queueReadEvent, user],
  );

  const study = studyName ?? t({ id: "inbox_selected_study", message: "The selected study" });
  const list = skipped ? instrumentQuery : query;
  const count = skipped ? instrumentAnnouncements.length : announcements.length;

  return (
    <div className="page page--narrow inbox">
      <div className="inbox__header">
        <h1 tabIndex={-1}>
          <Trans id="inbox_heading">Inbox</Trans>
        </h1>
        {user && mayWriteAnnouncements(user) ? (
          <Link to="/inbox/new" className="button button--primary">
            <Trans id="inbox_write_link">Write an announcement</Trans>
          </Link>
        ) : null}
      </div>

      {onboarding.known && !onboarding.state.announcements ? (
        <OnboardingCard
          kind="announcements"
          title={t({ id: "inbox_onboarding_title", message: "News from your study teams" })}
          onDismiss={() => dismiss.mutate("announcements")}
        >
          <p>
            <Trans id="inbox_onboarding_body">
              Announcements from your study coordinators arrive here. A dot marks the ones you have not opened
              yet; open one to read it.
            </Trans>
          </p>
        </OnboardingCard>
      ) : null}

      {skipped ? (
        <p className="inbox__notice">
          <Trans id="inbox_study_announcements">
            These are the announcements of {study}, the study you chose. Choose another study to see its
            announcements.
          </Trans>
        </p>
      ) : null}
      {list.isPending ? (
        <p className="inbox__notice" role="status">
          <Trans id="inbox_loading">Loading announcements…</Trans>
        </p>
      ) : list.isError && count === 0 ? (
        <p className="form-error" role="alert">
          <Trans id="inbox_failed">
            Your announcements could not be loaded. Check your connection and try again.
          </Trans>
        </p>
      ) : count === 0 ? (
        <div className="inbox__empty">
          <Mascot size={120} className="inbox__mascot" />
          <p className="inbox__empty-title">
            <Trans id="inbox_empty_title">You're all caught up</Trans>
          </p>
          <p className="inbox__empty-body">
            <Trans id="inbox_empty_body">
              There are no announcements yet. News from your study teams will appear here.
            </Trans>
          </p>
        </div>
      ) : (
        <ul className="inbox__list" aria-label={t({ id: "inbox_list_label", message: "Announcements" })}>
          {skipped
            ? instrumentAnnouncements.map((announcement) => (
                <AnnouncementItem
                  key={`instrument-${announcement.instrument_id}`}
                  announcement={asAnnouncement(announcement)}
                  now={now}
                  onOpen={() => openInstrumentAnnouncement(announcement)}
                />
              ))
            : announcements.map((announcement) => (
                <AnnouncementItem
                  key={announcement.id}
                  announcement={announcement}
                  now={now}
                  onOpen={openAnnouncement}
                />
              ))}
        </ul>
      )}
    </div>
  );
}
