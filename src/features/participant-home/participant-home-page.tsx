import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { lazy, Suspense, useState } from "react";
import { participantQuery } from "../../api/participants-api.ts";
import { mayEnrolAt } from "../../api/enrolment-access.ts";
import { ApiError } from "../../api/request.ts";
import { studyQuery } from "../../api/studies-api.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import type { ParticipantResponse } from "../../../core/contracts/participant.ts";
import { ROLE_CODE } from "../../../core/contracts/roles.ts";
import type { Visit } from "../../../core/contracts/visits.ts";
import { formatDateTime } from "../../i18n/format-date.ts";
import { RatioMeter } from "../../widgets/meter/ratio-meter.tsx";
import { ConsentFirstNotice } from "../../widgets/consent-first/consent-first-notice.tsx";
import { useConsentLock } from "../../outbox-ui/use-consent-lock.ts";
import { InstrumentLists } from "./instrument-lists-view.tsx";
import { ParticipantAccessDenied } from "./participant-access-denied.tsx";
import { summarizeParticipant } from "./participant-summary.ts";
import { useNow } from "./use-now.ts";
import type { ParticipantHomeProps } from "./participant-home-props.ts";
import "./participant-home.css";

// Loaded when a coordinator opens it: the visits calls are not part of the participant page.
const ScheduleVisitDialog = lazy(() =>
  import("./schedule-visit-dialog.tsx").then((module) => ({ default: module.ScheduleVisitDialog })),
);

/**
 * The participant home (spec 01 section 2): the summary block, then the to-do and completed
 * tabs; in a study that asks consent first, the to-do list stays locked, with the way to the
 * consent, until the participant's required consent is complete. A 403 on the participant shows the access-denied panel instead.
 */
export function ParticipantHomePage(props: ParticipantHomeProps) {
  const { studyId, siteId, participantId } = props;
  const user = useStoredUser();
  const permitted = user?.permissions?.[String(studyId)] !== undefined;
  const participant = useQuery(participantQuery(studyId, siteId, participantId));
  // Only a study the user has permission in: the study call answers 403 (a logout) otherwise.
  const study = useQuery({ ...studyQuery(studyId), enabled: user !== null && permitted });
  const consentLock = useConsentLock(studyId, siteId, participantId).consents;

  if (participant.error instanceof ApiError && participant.error.status === 403) {
    return <ParticipantAccessDenied {...props} />;
  }
  // Data already on the device stays on screen when a refetch fails (the server away, offline):
  // the error page is for a participant this device has never loaded.
  if (participant.data === undefined && participant.isPending) {
    return (
      <div className="page">
        <p className="empty-state" role="status">
          <Trans id="participant_loading">Loading participant…</Trans>
        </p>
      </div>
    );
  }
  if (participant.data === undefined) {
    return (
      <div className="page page--narrow">
        <h1 tabIndex={-1}>
          <Trans id="error_fetch_participant">Error fetching participant.</Trans>
        </h1>
        <Link
          className="button button--secondary"
          to="/studies/$studyId/sites/$siteId/search"
          params={{ studyId: studyId, siteId: siteId }}
        >
          <Trans id="participant_back_to_search">Back to search</Trans>
        </Link>
      </div>
    );
  }

  // Coordinators of a study with virtual visits schedule them from here (the server checks too).
  const maySchedule =
    user?.permissions?.[String(studyId)]?.role === ROLE_CODE.clinicalCoordinator &&
    study.data?.config.virtual_visits === true;

  return (
    <div className="page participant-home">
      <ParticipantSummaryBlock participant={participant.data} />
      {mayEnrolAt(user, studyId, siteId) ? (
        <div className="participant-actions">
          <Link
            className="button button--secondary"
            to="/studies/$studyId/sites/$siteId/participants/$participantId/edit"
            params={{ studyId, siteId, participantId }}
          >
            <Trans id="enrolment_edit_entry">Edit details</Trans>
          </Link>
        </div>
      ) : null}
      {maySchedule ? <ScheduleVisitAction {...props} participant={participant.data} /> : null}
      <ConsentFirstNotice {...props} consents={consentLock} headingLevel={2} />
      {study.data ? (
        <InstrumentLists
          {...props}
          architectureVersion={study.data.config.instrument_architecture_version}
          consentLocked={consentLock.length > 0}
        />
      ) : study.isError ? null : (
        <p className="empty-state" role="status">
          <Trans id="participant_lists_loading">Loading instruments…</Trans>
        </p>
      )}
    </div>
  );
}

function ParticipantSummaryBlock({ participant }: { participant: ParticipantResponse }) {
  const { t } = useLingui();
  const now = useNow();
  const summary = summarizeParticipant(participant, now);
  const unknown = t({ id: "participant_unknown", message: "Not recorded" });
  const gender = {
    m: t({ id: "participant_gender_m", message: "Male" }),
    f: t({ id: "participant_gender_f", message: "Female" }),
    o: t({ id: "participant_gender_o", message: "Other" }),
  };
  const days = summary.daysSinceFirstLogin;
  return (
    <section className="participant-summary" aria-labelledby="participant-name">
      <h1 id="participant-name" tabIndex={-1} className="participant-summary__name">
        {summary.name}
      </h1>
      <dl className="participant-summary__facts">
        <div>
          <dt>
            <Trans id="participant_id">Participant id</Trans>
          </dt>
          <dd>{summary.id}</dd>
        </div>
        <div>
          <dt>
            <Trans id="participant_subject_id">Subject id</Trans>
          </dt>
          <dd>{summary.subjectId || unknown}</dd>
        </div>
        <div>
          <dt>
            <Trans id="participant_date_of_birth">Date of birth</Trans>
          </dt>
          <dd>{summary.dateOfBirth ?? unknown}</dd>
        </div>
        <div>
          <dt>
            <Trans id="participant_age">Age</Trans>
          </dt>
          <dd>{summary.age ?? unknown}</dd>
        </div>
        <div>
          <dt>
            <Trans id="participant_gender">Gender</Trans>
          </dt>
          <dd>{summary.gender ? gender[summary.gender] : unknown}</dd>
        </div>
        <div>
          <dt>
            <Trans id="participant_last_updated">Last updated</Trans>
          </dt>
          <dd>{summary.lastUpdated}</dd>
        </div>
        <div>
          <dt>
            <Trans id="participant_days_since_first_login">Days since first login</Trans>
          </dt>
          <dd>
            {days === null ? t({ id: "participant_never_logged_in", message: "Not logged in yet" }) : days}
          </dd>
        </div>
      </dl>
      <div className="participant-summary__progress">
        <RatioMeter
          label={<Trans id="participant_instruments_completed">Instruments completed</Trans>}
          done={participant.num_completed_instruments}
          total={participant.num_total_instruments}
        />
      </div>
    </section>
  );
}

function ScheduleVisitAction(props: ParticipantHomeProps & { participant: ParticipantResponse }) {
  const [open, setOpen] = useState(false);
  const [scheduled, setScheduled] = useState<Visit | null>(null);
  const name = `${props.participant.fname} ${props.participant.lname}`;
  const when = scheduled ? formatDateTime(scheduled.visit_time) : "";
  const minutes = scheduled?.visit_duration ?? 0;
  const email = scheduled?.participant_email ?? "";
  return (
    <div className="participant-actions">
      <button
        type="button"
        className="button button--secondary"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
      >
        <Trans id="visit_schedule_open">Schedule visit</Trans>
      </button>
      <p className="participant-actions__status" role="status">
        {scheduled ? (
          email ? (
            <Trans id="visit_scheduled_mailed">
              Visit scheduled for {when} ({minutes} min). The join link was emailed to {email}.
            </Trans>
          ) : (
            <Trans id="visit_scheduled_no_email">
              Visit scheduled for {when} ({minutes} min). The participant has no email address, so no join
              link was sent.
            </Trans>
          )
        ) : null}
      </p>
      {open ? (
        <Suspense fallback={null}>
          <ScheduleVisitDialog
            studyId={props.studyId}
            siteId={props.siteId}
            participantId={props.participantId}
            participantName={name}
            onCancel={() => setOpen(false)}
            onScheduled={(visit) => {
              setOpen(false);
              setScheduled(visit);
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
