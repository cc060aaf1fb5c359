import { Trans } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { Mascot } from "../../widgets/mascot/mascot.tsx";

export function NotFoundPage() {
  return (
    <div className="page page--narrow">
      <Mascot size={120} className="mascot--lead" />
      <h1 tabIndex={-1}>
        <Trans id="not_found_heading">Page not found</Trans>
      </h1>
      <p>
        <Trans id="not_found_body">This page does not exist in this version of the portal.</Trans>
      </p>
      <Link className="button button--secondary" to="/studies">
        <Trans id="back_to_studies">Back to studies</Trans>
      </Link>
    </div>
  );
}
