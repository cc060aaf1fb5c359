/**
 * "Add participant" (section 4 of the site set-up issue): the form, then the enrolment goes to
 * the outbox under a new client id (online or not, one path), and the page of the new
 * participant opens at their provisional id; it moves to their real page once the server has
 * enrolled them. Only an enroller, study manager, administrator or the study's coordinator at
 * this site gets the form (the server checks the same).
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { enrolmentWrite, mayEnrolAt } from "../../api/enrolment-api.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import { useOfflineConsentsPrefetch } from "../../api/use-offline-consents-prefetch.ts";
import { enqueueEnrolment } from "../../outbox/enqueue.ts";
import { describeStoreError } from "../../outbox-ui/store-error.ts";
import { AccessDeniedPanel } from "../../widgets/access-denied/access-denied-panel.tsx";
import type { ParticipantFields } from "../../../core/contracts/enrolment.ts";
import { ParticipantForm, type ServerProblem } from "./participant-form.tsx";
import { EMPTY_PARTICIPANT_FORM } from "./participant-form-model.ts";
import "./enrolment.css";

type Props = { studyId: number; siteId: number };

export function AddParticipantPage({ studyId, siteId }: Props) {
  const { t } = useLingui();
  const user = useStoredUser();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<ServerProblem | null>(null);
  const mayEnrol = mayEnrolAt(user, studyId, siteId);
  useOfflineConsentsPrefetch(user?.permissions?.[String(studyId)], studyId, siteId, mayEnrol);

  if (!mayEnrol) {
    return (
      <div className="page page--narrow">
        <AccessDeniedPanel
          message={t({
            id: "enrolment_forbidden",
            message:
              "Only enrollers, study managers, administrators and this study's coordinators add participants here.",
          })}
          actions={
            <Link
              className="button button--secondary"
              to="/studies/$studyId/sites/$siteId/search"
              params={{ studyId, siteId }}
            >
              <Trans id="participant_back_to_search">Back to search</Trans>
            </Link>
          }
        >
          {null}
        </AccessDeniedPanel>
      </div>
    );
  }

  const add = async (fields: ParticipantFields) => {
    if (!user) return;
    setProblem(null);
    try {
      const item = await enqueueEnrolment(enrolmentWrite(studyId, siteId, fields, crypto.randomUUID()), {
        userId: user.id,
        username: user.username,
        studyId,
        siteId,
      });
      await navigate({
        to: "/studies/$studyId/sites/$siteId/participants/$participantId",
        params: { studyId, siteId, participantId: item.participantId! },
      });
    } catch (error) {
      // Nothing was queued: the device refused to store it (full, or private browsing).
      const reason = describeStoreError(error);
      setProblem({
        text: t({
          id: "enrolment_not_stored",
          message: `The participant could not be saved on this device: ${reason}`,
        }),
      });
    }
  };

  return (
    <div className="page page--narrow enrolment-page">
      <h1 tabIndex={-1}>
        <Trans id="enrolment_add_heading">Add participant</Trans>
      </h1>
      <ParticipantForm
        initial={EMPTY_PARTICIPANT_FORM}
        submitLabel={<Trans id="enrolment_add_submit">Add participant</Trans>}
        onSubmit={add}
        serverProblem={problem}
        cancel={
          <Link
            className="button button--secondary"
            to="/studies/$studyId/sites/$siteId/search"
            params={{ studyId, siteId }}
          >
            <Trans id="enrolment_cancel">Cancel</Trans>
          </Link>
        }
      />
    </div>
  );
}
