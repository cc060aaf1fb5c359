import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { lazy, Suspense, useRef, useState } from "react";
import {
  consentDownloadFailMessage,
  consentParticipantsQuery,
  downloadCompletedConsent,
} from "../../api/consents-api.ts";
import { ApiError } from "../../api/request.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import { participantsOf, type ConsentParticipant } from "../../../core/contracts/consent-schemas.ts";
import type { ConsentParticipantStatus } from "../../../core/contracts/consents.ts";
import { formatShortDate } from "../../i18n/format-date.ts";
import { DataTable, type TableColumn } from "../../widgets/table/data-table.tsx";
import { SearchBox } from "../../widgets/table/search-box.tsx";
import { showToast, TOAST_ERROR_MS } from "../../widgets/toast/toast-store.ts";
import { completedConsentFileName } from "./completed-consent-file.ts";
import { ConsentAccessDenied } from "./consent-access-denied.tsx";
import { ConsentDocumentModal, type ConsentDocument } from "./consent-document-modal.tsx";
import {
  CONSENT_GROUPS,
  actionOfGroup,
  groupParticipants,
  participantMatches,
  type ConsentGroup,
  type ParticipantGroup,
} from "./consent-groups.ts";

// React Aria's popover and checkbox group weigh some 45 KiB: loaded once the list is on screen.
const FilterBox = lazy(() =>
  import("../../widgets/filter-box/filter-box.tsx").then((module) => ({ default: module.FilterBox })),
);

type Props = {
  studyId: number;
  siteId: number;
  consentId: number;
  /** Arrived from a consent session that moved the participant to this status: say so, and what is next. */
  signed: ConsentParticipantStatus | undefined;
};

/**
 * The participants of one consent (spec 02 sections 2 and 4), grouped by status as the viewer
 * sees them, each group under its status bar, with the action of its group. The route remounts
 * this page on every location change, so the search text starts over.
 */
export function ConsentParticipantsPage({ studyId, siteId, consentId, signed }: Props) {
  const { t } = useLingui();
  const groupTitle = useGroupTitle();
  const navigate = useNavigate();
  const user = useStoredUser();
  const role = user?.permissions?.[String(studyId)]?.role;
  const [text, setText] = useState("");
  const [shownGroups, setShownGroups] = useState<readonly string[]>([]);
  const consent = useQuery(consentParticipantsQuery(consentId, siteId));

  if (consent.error instanceof ApiError && consent.error.status === 403) return <ConsentAccessDenied />;
  // Data already on the device stays on screen when a refetch fails (offline, server away).
  if (consent.data === undefined) return <ParticipantsNotLoaded {...{ studyId, siteId, consent }} />;

  const { title, version, date_deployed: dateDeployed } = consent.data;
  const participants = participantsOf(consent.data);
  const deployed = formatShortDate(dateDeployed);
  const allGroups = groupParticipants(
    participants.filter((participant) => participantMatches(participant, text)),
    role,
  );
  // The filter box narrows the list to the chosen status groups; none chosen shows them all.
  const groups =
    shownGroups.length === 0 ? allGroups : allGroups.filter((group) => shownGroups.includes(group.group));

  const dismissSigned = () =>
    void navigate({
      to: "/studies/$studyId/sites/$siteId/consents/$consentId",
      params: { studyId, siteId, consentId },
      search: {},
      replace: true,
    });

  return (
    <div className="page consent-participants">
      <h1 tabIndex={-1}>{title}</h1>
      <p className="consent-participants__facts">
        <Trans id="consents_version_deployed">
          Version {version} · deployed {deployed}
        </Trans>
      </p>
      {signed ? (
        <div className="consent-participants__signed" role="status">
          <span>
            <SignedMessage status={signed} />
          </span>
          <button type="button" className="button button--secondary" onClick={dismissSigned}>
            <Trans id="consents_signed_dismiss">Dismiss</Trans>
          </button>
        </div>
      ) : null}
      <SearchBox
        label={t({ id: "consents_participants_search_label", message: "Search participants" })}
        hint={t({
          id: "consents_participants_search_hint",
          message: "First name, last name, subject id or participant id.",
        })}
        value={text}
        onChange={setText}
      />
      <div className="consent-participants__filter">
        <Suspense
          fallback={
            <button type="button" className="button button--secondary" disabled>
              <Trans id="widget_filter_button">Filter</Trans>
            </button>
          }
        >
          <FilterBox
            choicesLabel={t({ id: "consents_filter_status", message: "Status" })}
            choices={CONSENT_GROUPS.map((group) => ({ value: group, label: groupTitle(group) }))}
            applied={shownGroups}
            onApply={setShownGroups}
          />
        </Suspense>
      </div>
      {participants.length === 0 ? (
        <p className="empty-state" role="status">
          <Trans id="consents_participants_empty">
            No participant of this site has been offered this consent.
          </Trans>
        </p>
      ) : groups.length === 0 ? (
        <p className="empty-state" role="status">
          <Trans id="clinro_no_matches_found">No matches found</Trans>
        </p>
      ) : (
        groups.map((group) => (
          <ConsentGroupSection
            key={group.group}
            group={group}
            studyId={studyId}
            siteId={siteId}
            title={title}
            role={role}
          />
        ))
      )}
    </div>
  );
}

/** Nothing to show yet: still loading, or the first load failed (404: no such consent). */
function ParticipantsNotLoaded({
  studyId,
  siteId,
  consent,
}: {
  studyId: number;
  siteId: number;
  consent: { isError: boolean; error: Error | null };
}) {
  if (!consent.isError) {
    return (
      <div className="page">
        <p className="empty-state" role="status">
          <Trans id="consents_participants_loading">Loading participants…</Trans>
        </p>
      </div>
    );
  }
  const notFound = consent.error instanceof ApiError && consent.error.status === 404;
  return (
    <div className="page page--narrow">
      <h1 tabIndex={-1}>
        {notFound ? (
          <Trans id="consents_not_found">This consent does not exist.</Trans>
        ) : (
          <Trans id="consents_participants_fetch_failed">
            The participants of this consent could not be loaded.
          </Trans>
        )}
      </h1>
      <Link
        className="button button--secondary"
        to="/studies/$studyId/sites/$siteId/consents"
        params={{ studyId, siteId }}
      >
        <Trans id="consents_back_to_list">Back to consents</Trans>
      </Link>
    </div>
  );
}

function useGroupTitle() {
  const { t } = useLingui();
  return (group: ConsentGroup): string => {
    switch (group) {
      case "signatureRequired":
        return t({ id: "consents_group_signature_required", message: "Your signature is required" });
      case "witnessSignatureRequired":
        return t({
          id: "consents_group_witness_signature_required",
          message: "Your signature as witness is required",
        });
      case "pendingSigneeCompletion":
        return t({ id: "consents_group_pending_signee", message: "Waiting for another signer" });
      case "pendingCompletion":
        return t({ id: "consents_group_pending_completion", message: "Waiting for the participant" });
      case "completed":
        return t({ id: "consents_group_completed", message: "Completed" });
      case "declined":
        return t({ id: "consents_group_declined", message: "Declined" });
    }
  };
}

function ConsentGroupSection({
  group,
  studyId,
  siteId,
  title,
  role,
}: {
  group: ParticipantGroup<ConsentParticipant>;
  studyId: number;
  siteId: number;
  title: string;
  role: string | undefined;
}) {
  const { t } = useLingui();
  const groupTitle = useGroupTitle();
  const headingId = `consent-group-${group.group}`;
  const count = group.participants.length;
  const columns: TableColumn<ConsentParticipant>[] = [
    {
      id: "lastName",
      header: t({ id: "search_column_last_name", message: "Last name" }),
      className: "consent-group__name",
      sortValue: (participant) => participant.lastname,
      cell: (participant) => participant.lastname,
    },
    {
      id: "firstName",
      header: t({ id: "search_column_first_name", message: "First name" }),
      sortValue: (participant) => participant.firstname,
      cell: (participant) => participant.firstname,
    },
    {
      id: "participantId",
      header: t({ id: "consents_column_participant_id", message: "Participant id" }),
      sortValue: (participant) => participant.id,
      cell: (participant) => participant.id,
      nowrap: true,
    },
    {
      id: "subjectId",
      header: t({ id: "search_column_subject_id", message: "Subject id" }),
      sortValue: (participant) => participant.subject_id,
      cell: (participant) => participant.subject_id,
      nowrap: true,
    },
    {
      id: "action",
      header: t({ id: "consents_column_action", message: "Action" }),
      className: "consent-group__action",
      cell: (participant) => (
        <ParticipantAction
          group={group.group}
          participant={participant}
          studyId={studyId}
          siteId={siteId}
          title={title}
          role={role}
        />
      ),
    },
  ];

  return (
    <section className={`consent-group consent-group--${group.group}`} aria-labelledby={headingId}>
      <h2 id={headingId} className="consent-group__bar">
        <span>{groupTitle(group.group)}</span>{" "}
        <span className="consent-group__count">
          <span className="visually-hidden">
            <Trans id="consents_group_count_label">Participants:</Trans>{" "}
          </span>
          {count}
        </span>
      </h2>
      <DataTable
        rows={group.participants}
        columns={columns}
        rowKey={(participant) => String(participant.id)}
        caption={groupTitle(group.group)}
        className="consent-group__table"
        stackOnPhone
      />
    </section>
  );
}

function ParticipantAction({
  group,
  participant,
  studyId,
  siteId,
  title,
  role,
}: {
  group: ConsentGroup;
  participant: ConsentParticipant;
  studyId: number;
  siteId: number;
  title: string;
  role: string | undefined;
}) {
  const [downloading, setDownloading] = useState(false);
  const [viewing, setViewing] = useState<ConsentDocument | null>(null);
  const seeButton = useRef<HTMLButtonElement>(null);
  const action = actionOfGroup(group, participant, role);
  // Several rows hold the same action: the participant's name tells them apart for a screen reader.
  const whose = (
    <span className="visually-hidden">
      {" "}
      ({participant.firstname} {participant.lastname})
    </span>
  );

  const download = async () => {
    setDownloading(true);
    try {
      const blob = await downloadCompletedConsent({
        studyId,
        participantId: participant.id,
        consentId: participant.consent_id,
      });
      setViewing({
        blob,
        fileName: completedConsentFileName({
          title,
          version: participant.consent_version,
          subjectId: participant.subject_id,
        }),
        title,
        participantName: `${participant.firstname} ${participant.lastname}`.trim(),
        subjectId: participant.subject_id,
      });
    } catch (error) {
      // A 403 is handled here (no logout for one document); other failures have had their toast.
      if (error instanceof ApiError && error.status === 403) {
        showToast(consentDownloadFailMessage, "error", TOAST_ERROR_MS);
      }
    } finally {
      setDownloading(false);
    }
  };

  const completionParams = {
    studyId,
    siteId,
    consentId: participant.consent_id,
    participantId: participant.id,
    versionId: participant.consent_version,
  };
  const completionRoute =
    "/studies/$studyId/sites/$siteId/consents/$consentId/participants/$participantId/version/$versionId";
  const mailButton = (href: string) => (
    <a className="button button--secondary" href={href}>
      <Trans id="consents_action_mail">Compose email</Trans>
      {whose}
    </a>
  );

  switch (action.kind) {
    case "open":
      return (
        <Link className="button button--primary" to={completionRoute} params={completionParams}>
          <Trans id="consents_action_open">Open consent</Trans>
          {whose}
        </Link>
      );
    case "start":
      // Signed in person on this tablet, the participant's part first.
      return (
        <div className="consent-group__actions">
          <Link className="button button--primary" to={completionRoute} params={completionParams}>
            <Trans id="consents_action_start">Start consent</Trans>
            {whose}
          </Link>
          {action.mailHref === undefined ? null : mailButton(action.mailHref)}
        </div>
      );
    case "pending":
      return (
        <span className="consent-group__pending">
          <Trans id="consents_action_pending">Pending</Trans>
        </span>
      );
    case "mail":
      return mailButton(action.href);
    case "download":
      return (
        <>
          <button
            ref={seeButton}
            type="button"
            className="link-button"
            disabled={downloading}
            aria-busy={downloading}
            onClick={() => void download()}
          >
            <Trans id="consents_action_see_consent">See consent</Trans>
            {whose}
          </button>
          {viewing ? (
            <ConsentDocumentModal
              document={viewing}
              onClose={() => setViewing(null)}
              returnFocusTo={seeButton}
            />
          ) : null}
        </>
      );
    case "none":
      return null;
  }
}

/** What the session that brought the clinician here achieved, and who is awaited next. */
function SignedMessage({ status }: { status: ConsentParticipantStatus }) {
  switch (status) {
    case "awaiting_clinro":
      return (
        <Trans id="consents_signed_awaiting_clinro">
          The participant's part was signed. Waiting for the clinician's signature.
        </Trans>
      );
    case "awaiting_witness":
      return (
        <Trans id="consents_signed_awaiting_witness">
          The consent was signed. Waiting for the witness's signature.
        </Trans>
      );
    case "complete":
      return <Trans id="consents_signed_complete">The consent was signed and is complete.</Trans>;
    case "declined":
      return <Trans id="consents_signed_declined">The participant's decision to decline was recorded.</Trans>;
    case "awaiting_participant":
      return (
        <Trans id="consents_signed_awaiting_participant">
          The consent was sent. Waiting for the participant.
        </Trans>
      );
  }
}
