import { Trans } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";

/** /unauthorized: the no-access page. */
export function UnauthorizedPage() {
  return (
    <div className="page page--narrow">
      <h1 tabIndex={-1}>
        <Trans id="unauthorized_heading">You don't have access to this page</Trans>
      </h1>
      <p>
        <Trans id="unauthorized_body">
          Your account is not allowed to open what you asked for. If you think this is a mistake, contact your
          study coordinator.
        </Trans>
      </p>
      <Link className="button button--secondary" to="/studies">
        <Trans id="back_to_studies">Back to studies</Trans>
      </Link>
    </div>
  );
}
