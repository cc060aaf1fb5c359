import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { visitsQuery } from "../../api/visits-api.ts";
import type { Visit } from "../../../core/contracts/visits.ts";
import { dispatchRoom, getRoomState, subscribeToRoom } from "../../video/visit-room-store.ts";
import { isRoomActive } from "../../video/visit-room-state.ts";
import {
  describeVisitTime,
  deviceTimeZone,
  groupVisits,
  visitAction,
  visitMailto,
  type VisitSectionKey,
} from "./visit-groups.ts";
import "../../widgets/video-container/video-room.css";
import "./visits.css";

type Props = {
  studyId: number;
  siteId: number;
  /** On the room's own URL (/visits/{roomToken}): the room to open. */
  roomName?: string;
};

/** The clock the sections follow: a visit moves from Today to Next, or leaves, as time passes. */
const CLOCK_TICK_MS = 30_000;

function useNow() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), CLOCK_TICK_MS);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/**
 * The virtual visits page (spec 01 "Virtual visits page"): the visits that have not ended, in
 * the sections Next, Today, Later this week and Future virtual visits. A row's button opens the
 * room (its URL, which opens the global overlay) or, for a visit without a room, a pre-filled
 * mail; every button is disabled while a room is open.
 */
export function VisitsPage({ studyId, siteId, roomName }: Props) {
  const { t } = useLingui();
  const visits = useQuery(visitsQuery(studyId, siteId));
  const room = useSyncExternalStore(subscribeToRoom, getRoomState, getRoomState);
  const roomActive = isRoomActive(room);
  const now = useNow();
  const timeZone = deviceTimeZone();

  // On the room's URL: open that room once the visits are known (its token and recording flag).
  // Once per room URL: a later refetch (the visit ending, a changed row) must not open again a
  // room the clinician has hung up.
  const roomVisit = roomName ? visits.data?.find((visit) => visit.room_name === roomName) : undefined;
  const visitsSettled = !visits.isPending;
  const openedRoomName = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!roomName) {
      openedRoomName.current = undefined;
      return;
    }
    if (!visitsSettled || openedRoomName.current === roomName) return;
    openedRoomName.current = roomName;
    dispatchRoom({
      type: "open",
      request: {
        studyId,
        siteId,
        roomName,
        visitToken: roomVisit?.token ?? null,
        isRecorded: roomVisit?.is_recorded ?? false,
        participantName: roomVisit ? `${roomVisit.fname} ${roomVisit.lname}` : undefined,
      },
    });
  }, [roomName, visitsSettled, roomVisit, studyId, siteId]);

  const sectionTitles: Record<VisitSectionKey, string> = {
    next: t({ id: "visits_section_next", message: "Next" }),
    today: t({ id: "visits_section_today", message: "Today" }),
    laterThisWeek: t({ id: "visits_section_later_this_week", message: "Later this week" }),
    future: t({ id: "visits_section_future", message: "Future virtual visits" }),
  };

  let body;
  if (visits.isPending) {
    body = (
      <p className="search-hint" role="status">
        <Trans id="visits_loading">Loading visits…</Trans>
      </p>
    );
  } else if (visits.isError) {
    body = (
      <p className="empty-state" role="status">
        <Trans id="visits_failed">The visits could not be loaded. Try again.</Trans>
      </p>
    );
  } else {
    const sections = groupVisits(visits.data, now, timeZone).filter((section) => section.visits.length > 0);
    body =
      sections.length === 0 ? (
        <p className="empty-state" role="status">
          <Trans id="visits_none">No upcoming virtual visits.</Trans>
        </p>
      ) : (
        sections.map((section) => (
          <section key={section.key} className="visits-section" aria-labelledby={`visits-${section.key}`}>
            <h2 id={`visits-${section.key}`}>{sectionTitles[section.key]}</h2>
            <ul className="visits-list">
              {section.visits.map((visit) => (
                <VisitRow
                  key={visit.id}
                  visit={visit}
                  studyId={studyId}
                  siteId={siteId}
                  now={now}
                  timeZone={timeZone}
                  roomActive={roomActive}
                />
              ))}
            </ul>
          </section>
        ))
      );
  }

  return (
    <div className="page visits-page">
      <h1 tabIndex={-1}>
        <Trans id="visits_heading">Virtual visits</Trans>
      </h1>
      {body}
    </div>
  );
}

function VisitRow({
  visit,
  studyId,
  siteId,
  now,
  timeZone,
  roomActive,
}: {
  visit: Visit;
  studyId: number;
  siteId: number;
  now: Date;
  timeZone: string;
  roomActive: boolean;
}) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const when = describeVisitTime(visit, now, timeZone);
  const action = visitAction(visit);
  const { start, end, date } = when;
  const { fname, lname } = visit;
  const dayText = when.isToday ? t({ id: "visits_today", message: "Today" }) : date;
  const rangeText = t({ id: "visits_time_range", message: `${start} to ${end}` });

  const participantLink = {
    to: "/studies/$studyId/sites/$siteId/participants/$participantId" as const,
    params: { studyId, siteId, participantId: visit.participant_id },
  };

  let button;
  if (action === "room") {
    button = (
      <button
        type="button"
        className="button button--primary"
        disabled={roomActive}
        onClick={() => {
          // Opened here too, not only by the room's URL: pressing the row again after a hang-up
          // (the URL unchanged) opens the room again.
          dispatchRoom({
            type: "open",
            request: {
              studyId,
              siteId,
              roomName: visit.room_name,
              visitToken: visit.token,
              isRecorded: visit.is_recorded,
              participantName: `${visit.fname} ${visit.lname}`,
            },
          });
          void navigate({
            to: "/studies/$studyId/sites/$siteId/visits/$roomToken",
            params: { studyId, siteId, roomToken: visit.room_name },
          });
        }}
      >
        <Trans id="visits_start">Start video visit</Trans>
      </button>
    );
  } else {
    const label = t({ id: "visits_email", message: "Email participant" });
    const href = visitMailto(visit.participant_email, {
      subject: t({ id: "visits_mail_subject", message: `Virtual visit on ${date} at ${start}` }),
      body: t({
        id: "visits_mail_body",
        message: `Dear ${fname} ${lname},\n\nYour virtual visit is on ${date} from ${start} to ${end}. We will send you the link to join it.\n\nKind regards`,
      }),
    });
    button =
      roomActive || visit.participant_email === "" ? (
        <button type="button" className="button button--secondary" disabled>
          {label}
        </button>
      ) : (
        <a className="button button--secondary" href={href}>
          {label}
        </a>
      );
  }

  return (
    <li className="visit-row">
      <div className="visit-row__who">
        <Link className="visit-row__name" {...participantLink}>
          <span className="visit-row__last-name">{lname}</span>, <span>{fname}</span>
        </Link>
        {visit.is_recorded ? (
          <span className="visit-row__recorded">
            <span aria-hidden="true" className="recording-dot" />
            <Trans id="visits_recorded">Recorded</Trans>
          </span>
        ) : null}
        {visit.is_adhoc ? (
          <span className="visit-row__adhoc">
            <Trans id="visits_adhoc">Ad hoc</Trans>
          </span>
        ) : null}
      </div>
      <div className="visit-row__when">
        <time dateTime={visit.visit_time}>{dayText}</time> <span>{rangeText}</span>
      </div>
      <div className="visit-row__action">{button}</div>
    </li>
  );
}
