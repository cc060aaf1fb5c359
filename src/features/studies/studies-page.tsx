import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect } from "react";
import { meQuery } from "../../api/users-api.ts";
import { updateStoredUser } from "../../auth/session-store.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import { ActivitiesOnboarding } from "./activities-onboarding.tsx";
import { clearSelection, storeSelection } from "./study-selection.ts";
import { pathAfterChoosing, selectableStudySites } from "./study-list.ts";
import { rowLinksRef } from "../../widgets/table/row-links.ts";
import { KeepDataHint } from "../../outbox-ui/keep-data-advice.tsx";

/**
 * /studies: the site and study pairs the user may work in. Shows the stored permissions at once
 * (also offline) and refreshes them from the me call.
 */
export function StudiesPage() {
  const { t } = useLingui();
  const user = useStoredUser();
  const me = useQuery(meQuery());

  useEffect(() => {
    clearSelection();
  }, []);
  useEffect(() => {
    if (me.data) updateStoredUser({ permissions: me.data.permissions });
  }, [me.data]);

  const items = selectableStudySites(me.data?.permissions ?? user?.permissions);

  return (
    <div className="page">
      <h1 tabIndex={-1}>
        <Trans id="studies_heading">Choose a study and site</Trans>
      </h1>
      {/* In the first render (no shift of the list a moment later): the state comes with the user. */}
      <ActivitiesOnboarding />
      {items.length === 0 ? (
        <p className="empty-state">
          {me.isPending
            ? t({ id: "studies_loading", message: "Loading your studies…" })
            : t({
                id: "studies_none",
                message: "You have no studies to work in. Ask your study coordinator for access.",
              })}
        </p>
      ) : (
        <table ref={rowLinksRef} className="data-table data-table--rows-link">
          <caption className="visually-hidden">
            <Trans id="studies_caption">Studies and sites you can work in</Trans>
          </caption>
          <thead>
            <tr>
              <th scope="col">
                <Trans id="studies_column_site">Site</Trans>
              </th>
              <th scope="col">
                <Trans id="studies_column_study">Study</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={`${item.studyId}-${item.siteId}`}>
                <td>
                  <Link
                    className="row-link"
                    to={pathAfterChoosing(item)}
                    onClick={() => storeSelection(item)}
                  >
                    {item.siteName}
                  </Link>
                </td>
                <td>{item.studyName}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <KeepDataHint />
    </div>
  );
}
