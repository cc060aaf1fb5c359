import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { AccessDeniedPanel } from "../../widgets/access-denied/access-denied-panel.tsx";

/** A consent, study or site outside the user's permissions answered 403: say so, offer the way back. */
export function ConsentAccessDenied() {
  const { t } = useLingui();
  return (
    <div className="page page--narrow">
      <AccessDeniedPanel
        message={t({
          id: "consents_access_denied",
          message: "It looks like you don't have access to this consent",
        })}
        actions={
          <Link className="button button--secondary" to="/studies">
            <Trans id="back_to_studies">Back to studies</Trans>
          </Link>
        }
      >
        {null}
      </AccessDeniedPanel>
    </div>
  );
}
