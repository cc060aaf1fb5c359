import { useLingui } from "@lingui/react/macro";
import { Trans } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { instrumentListKeys } from "../../api/instruments-api.ts";
import { participantQuery } from "../../api/participants-api.ts";
import { FORCED_CHANGE_PATH } from "../../auth/guards.ts";
import { AccessDeniedPanel } from "../../widgets/access-denied/access-denied-panel.tsx";
import type { ParticipantHomeProps } from "./participant-home-props.ts";
import { SignInAnotherAccount } from "./sign-in-another-account.tsx";

/** The participant answered 403: the access-denied panel with the participant message. */
export function ParticipantAccessDenied({ studyId, siteId, participantId }: ParticipantHomeProps) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const afterSignIn = async ({ temporaryPassword }: { temporaryPassword: boolean }) => {
    if (temporaryPassword) {
      await navigate({ to: FORCED_CHANGE_PATH });
      return;
    }
    try {
      await queryClient.fetchQuery({ ...participantQuery(studyId, siteId, participantId), staleTime: 0 });
      await queryClient.invalidateQueries({ queryKey: instrumentListKeys.all });
    } catch {
      // Still no access with this account, or the load failed: back to the study list.
      await navigate({ to: "/studies" });
    }
  };

  return (
    <div className="page page--narrow">
      <AccessDeniedPanel
        message={t({
          id: "access_denied_participant",
          message: "it looks like you don't have access to this participant",
        })}
        actions={
          <>
            <Link
              className="button button--secondary"
              to="/studies/$studyId/sites/$siteId/search"
              params={{ studyId: studyId, siteId: siteId }}
            >
              <Trans id="participant_back_to_search">Back to search</Trans>
            </Link>
            <Link className="button button--secondary" to="/studies">
              <Trans id="back_to_studies">Back to studies</Trans>
            </Link>
          </>
        }
      >
        <SignInAnotherAccount onSignedIn={afterSignIn} />
      </AccessDeniedPanel>
    </div>
  );
}
