/**
 * Whose record is this: every data-entry screen (an instrument, a consent, the
 * signature dialog) names the participant, their subject id, the study and the site, so nobody
 * enters data for the wrong patient. The study and site names come from the signed-in user's
 * permissions (kept on the device, so they show offline too); the participant from the page.
 */
import { Trans } from "@lingui/react/macro";
import { useStoredUser } from "../../auth/use-stored-user.ts";

export type RecordFacts = {
  /** "First Last"; blank while unknown. */
  participantName: string;
  /** Blank while the participant has none (screening) or while unknown. */
  subjectId: string;
  studyName: string | undefined;
  siteName: string | undefined;
};

/** The study's and site's names as the user's permissions hold them. */
export function useStudySiteNames(studyId: number, siteId: number) {
  const user = useStoredUser();
  const permission = user?.permissions?.[String(studyId)];
  return {
    studyName: permission?.study_name,
    siteName: permission?.sites.find((site) => site.site_id === siteId)?.site_label,
  };
}

/** One line: the participant (name and subject id), then the study and the site. */
export function RecordContext({ record, className }: { record: RecordFacts; className?: string }) {
  const { participantName, subjectId, studyName, siteName } = record;
  if (!participantName && !subjectId && !studyName && !siteName) return null;
  return (
    <p className={`record-context ${className ?? ""}`.trim()} data-testid="record-context">
      {participantName || subjectId ? (
        <span className="record-context__who">
          <span className="visually-hidden">
            <Trans id="record_context_participant">Participant:</Trans>{" "}
          </span>
          {participantName ? <strong>{participantName}</strong> : null}
          {participantName && subjectId ? " " : null}
          {subjectId ? (
            <span className="record-context__id">
              <span className="visually-hidden">
                <Trans id="record_context_subject_id">Subject id:</Trans>{" "}
              </span>
              {subjectId}
            </span>
          ) : null}
        </span>
      ) : null}
      {studyName ? (
        <span className="record-context__where">
          <span className="visually-hidden">
            <Trans id="record_context_study">Study:</Trans>{" "}
          </span>
          {studyName}
        </span>
      ) : null}
      {siteName ? (
        <span className="record-context__where">
          <span className="visually-hidden">
            <Trans id="record_context_site">Site:</Trans>{" "}
          </span>
          {siteName}
        </span>
      ) : null}
    </p>
  );
}
