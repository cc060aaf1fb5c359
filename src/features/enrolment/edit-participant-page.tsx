/**
 * Changing a participant's details: every field is sent again (the call replaces them), and a
 * refusal (the subject id already used in the study) is said under the field it names. Online
 * only: an edit is not queued (a participant not yet enrolled is corrected on their own page).
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { mayEnrolAt, useEditParticipant } from "../../api/enrolment-api.ts";
import { participantQuery } from "../../api/participants-api.ts";
import { ApiError } from "../../api/request.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import { AccessDeniedPanel } from "../../widgets/access-denied/access-denied-panel.tsx";
import { showToast, TOAST_SUCCESS_MS } from "../../widgets/toast/toast-store.ts";
import { msg } from "@lingui/core/macro";
import type { ParticipantFields } from "../../../core/contracts/enrolment.ts";
import { ParticipantForm, type ServerProblem } from "./participant-form.tsx";
import { fieldOfRefusal, participantFormValuesOf } from "./participant-form-model.ts";
import "./enrolment.css";

type Props = { studyId: number; siteId: number; participantId: number };

const savedMessage = msg({ id: "enrolment_edit_saved", message: "The participant's details are saved." });

export function EditParticipantPage({ studyId, siteId, participantId }: Props) {
  const { t } = useLingui();
  const user = useStoredUser();
  const navigate = useNavigate();
  const participant = useQuery(participantQuery(studyId, siteId, participantId));
  const mutation = useEditParticipant(studyId, siteId, participantId);
  const [problem, setProblem] = useState<ServerProblem | null>(null);

  const toParticipant = (
    <Link
      className="button button--secondary"
      to="/studies/$studyId/sites/$siteId/participants/$participantId"
      params={{ studyId, siteId, participantId }}
    >
      <Trans id="enrolment_cancel">Cancel</Trans>
    </Link>
  );
  if (!mayEnrolAt(user, studyId, siteId)) {
    return (
      <div className="page page--narrow">
        <AccessDeniedPanel
          message={t({
            id: "enrolment_edit_forbidden",
            message:
              "Only enrollers, study managers, administrators and this study's coordinators change participants.",
          })}
          actions={toParticipant}
        >
          {null}
        </AccessDeniedPanel>
      </div>
    );
  }
  if (participant.data === undefined) {
    return (
      <div className="page">
        <p className="empty-state" role="status">
          {participant.isPending ? (
            <Trans id="participant_loading">Loading participant…</Trans>
          ) : (
            <Trans id="error_fetch_participant">Error fetching participant.</Trans>
          )}
        </p>
      </div>
    );
  }

  const save = async (fields: ParticipantFields) => {
    setProblem(null);
    try {
      await mutation.mutateAsync(fields);
    } catch (error) {
      const body = error instanceof ApiError ? error.body : undefined;
      const field = fieldOfRefusal(body);
      setProblem({
        field,
        text:
          error instanceof ApiError && error.status === 409
            ? t({
                id: "enrolment_subject_id_taken",
                message: "This subject id is already used in this study.",
              })
            : error instanceof ApiError && error.status === 403
              ? t({
                  id: "enrolment_edit_forbidden_participant",
                  message: "You may not change this participant.",
                })
              : t({
                  id: "enrolment_edit_failed",
                  message: "The details could not be saved. Try again later.",
                }),
      });
      return;
    }
    showToast(savedMessage, "success", TOAST_SUCCESS_MS);
    await navigate({
      to: "/studies/$studyId/sites/$siteId/participants/$participantId",
      params: { studyId, siteId, participantId },
    });
  };

  const known = participant.data;
  return (
    <div className="page page--narrow enrolment-page">
      <h1 tabIndex={-1}>
        <Trans id="enrolment_edit_heading">Edit participant</Trans>
      </h1>
      <ParticipantForm
        initial={participantFormValuesOf(known)}
        submitLabel={<Trans id="enrolment_edit_submit">Save</Trans>}
        onSubmit={save}
        serverProblem={problem}
        cancel={toParticipant}
      />
    </div>
  );
}
