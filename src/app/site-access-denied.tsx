/**
 * The access-denied panel of a study site's page for a user who does not work at that site
 * (site-access-guard.tsx): the site message and the way back to their studies.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { AccessDeniedPanel } from "../widgets/access-denied/access-denied-panel.tsx";

export function SiteAccessDenied() {
  const { t } = useLingui();
  return (
    <div className="page page--narrow">
      <AccessDeniedPanel
        message={t({
          id: "access_denied_site",
          message: "It looks like you don't have access to this site.",
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
