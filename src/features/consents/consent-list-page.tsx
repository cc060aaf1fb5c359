import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { siteConsentsQuery } from "../../api/consents-api.ts";
import { ApiError } from "../../api/request.ts";
import { formatShortDate } from "../../i18n/format-date.ts";
import { DataTable, type TableColumn } from "../../widgets/table/data-table.tsx";
import { consentTitleMatches } from "./consent-groups.ts";
import { ConsentAccessDenied } from "./consent-access-denied.tsx";
import { StudyGreeting } from "../../widgets/study-greeting/study-greeting.tsx";

type Props = { studyId: number; siteId: number };

/**
 * The consent search list (spec 02 section 2): the study's consents at this site with their
 * deployment date; the box filters by title; a row opens the consent. The route remounts this
 * page on every location change, so the search text starts over.
 */
export function ConsentListPage({ studyId, siteId }: Props) {
  const { t } = useLingui();
  const list = useQuery(siteConsentsQuery(studyId, siteId));

  const heading = (
    <>
      <h1 tabIndex={-1}>
        <Trans id="consents_list_heading">Consents</Trans>
      </h1>
      <StudyGreeting studyId={studyId} />
    </>
  );

  if (list.error instanceof ApiError && list.error.status === 403) return <ConsentAccessDenied />;
  // Data already on the device stays on screen when a refetch fails (offline, server away).
  if (list.data === undefined && !list.isError) {
    return (
      <div className="page">
        {heading}
        <p className="empty-state" role="status">
          <Trans id="consents_list_loading">Loading consents…</Trans>
        </p>
      </div>
    );
  }
  if (list.data === undefined) {
    return (
      <div className="page">
        {heading}
        <p className="empty-state" role="alert">
          <Trans id="consents_list_fetch_failed">The consents could not be loaded.</Trans>
        </p>
      </div>
    );
  }

  const consents = list.data.consents.find((study) => study.study_id === studyId)?.consents ?? [];
  const columns: TableColumn<(typeof consents)[number]>[] = [
    {
      id: "name",
      header: t({ id: "consents_column_name", message: "Name" }),
      sortValue: (consent) => consent.title,
      // The title link opens the row (.row-link, row-links.ts): a click anywhere on it opens the
      // consent, and so does Enter on the focused link.
      cell: (consent) => (
        <Link
          className="row-link"
          to="/studies/$studyId/sites/$siteId/consents/$consentId"
          params={{ studyId, siteId, consentId: consent.consent_id }}
        >
          {consent.title}
        </Link>
      ),
    },
    {
      id: "dateDeployed",
      header: t({ id: "consents_column_date_deployed", message: "Date deployed" }),
      sortValue: (consent) => consent.date_deployed,
      cell: (consent) => formatShortDate(consent.date_deployed),
    },
    {
      id: "open",
      header: t({ id: "consents_column_open", message: "Open" }),
      hideHeader: true,
      className: "consent-list__chevron",
      cell: () => "›",
    },
  ];

  return (
    <div className="page consent-list">
      {heading}
      <DataTable
        rows={consents}
        columns={columns}
        rowKey={(consent) => String(consent.consent_id)}
        caption={t({ id: "consents_list_caption", message: "Consents of this site" })}
        className="consent-list__table"
        rowLinks
        stackOnPhone
        search={{
          label: t({ id: "consents_search_label", message: "Search consents by name" }),
          matches: (consent, text) => consentTitleMatches(consent, text),
        }}
        emptyText={<Trans id="consents_list_empty">This site has no consents.</Trans>}
      />
    </div>
  );
}
