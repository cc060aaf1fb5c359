import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useId, useState, type FormEvent } from "react";
import { participantSearchQuery } from "../../api/participants-api.ts";
import { mayEnrolAt } from "../../api/enrolment-access.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import { useOfflineConsentsPrefetch } from "../../api/use-offline-consents-prefetch.ts";
import { formatShortDate } from "../../i18n/format-date.ts";
import { SEARCH_VALUE_MAX_LENGTH } from "../../../core/contracts/participant.ts";
import { canSubmitSearch, normalizeSearchText } from "./search-text.ts";
import { rowLinksRef } from "../../widgets/table/row-links.ts";
import { StudyGreeting } from "../../widgets/study-greeting/study-greeting.tsx";
import type {
  ParticipantListOrder,
  ParticipantListSort,
} from "../../../core/contracts/participant-list-sorts.ts";
import { DEFAULT_LIST_ORDER } from "./list-sort.ts";
import { ParticipantList } from "./participant-list.tsx";
import "./participant-search.css";

type Props = {
  studyId: number;
  siteId: number;
  searchText: string | undefined;
  /** The order of the site's list, shown while no search is made (?sort=&order=). */
  listSort?: ParticipantListSort | undefined;
  listOrder?: ParticipantListOrder | undefined;
};

/**
 * Participant search (spec 01 section 2): one text box, submit disabled while the trimmed text
 * is empty. The submitted text lives in the URL (?q=), so back and forward replay searches, and
 * the box follows the location: the route remounts this page whenever the location changes.
 */
export function ParticipantSearchPage({ studyId, siteId, searchText, listSort, listOrder }: Props) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const inputId = useId();
  // The route keys this page by its location, so the box starts over on every location change.
  const [text, setText] = useState(searchText ?? "");
  const user = useStoredUser();
  const mayEnrol = mayEnrolAt(user, studyId, siteId);
  // Who may add participants offline keeps what signing their consents offline needs.
  useOfflineConsentsPrefetch(user?.permissions?.[String(studyId)], studyId, siteId, mayEnrol);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmitSearch(text)) return;
    void navigate({
      to: "/studies/$studyId/sites/$siteId/search",
      params: { studyId: studyId, siteId: siteId },
      search: { q: normalizeSearchText(text) },
    });
  };

  return (
    <div className="page">
      <h1 tabIndex={-1}>
        <Trans id="search_heading">Search participant</Trans>
      </h1>
      <StudyGreeting studyId={studyId} />
      <form className="search-form" role="search" onSubmit={submit}>
        <label htmlFor={inputId} className="search-form__label">
          <Trans id="search_label">Name or subject id</Trans>
        </label>
        <div className="search-form__row">
          <input
            id={inputId}
            type="search"
            className="search-form__input"
            value={text}
            maxLength={SEARCH_VALUE_MAX_LENGTH}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setText(event.target.value)}
          />
          <button type="submit" className="button button--primary" disabled={!canSubmitSearch(text)}>
            <Trans id="search_submit">Search</Trans>
          </button>
        </div>
      </form>
      {mayEnrol ? (
        <div className="search-enrol">
          <Link
            className="button button--secondary"
            to="/studies/$studyId/sites/$siteId/participants/new"
            params={{ studyId, siteId }}
          >
            <Trans id="enrolment_add_entry">Add participant</Trans>
          </Link>
          <Link
            className="button button--secondary"
            to="/studies/$studyId/sites/$siteId/participants/import"
            params={{ studyId, siteId }}
          >
            <Trans id="enrolment_import_entry">Import participants</Trans>
          </Link>
        </div>
      ) : null}
      <p className="search-pending">
        <Link to="/studies/$studyId/sites/$siteId/pending" params={{ studyId, siteId }}>
          <Trans id="search_pending_instruments_link">Pending instruments at this site</Trans>
        </Link>
      </p>
      {searchText ? (
        <SearchResults studyId={studyId} siteId={siteId} searchText={searchText} />
      ) : (
        <>
          <p className="search-hint">
            {t({ id: "search_hint", message: "Type part of a first name, last name or subject id." })}
          </p>
          <ParticipantList
            studyId={studyId}
            siteId={siteId}
            sort={listSort ?? DEFAULT_LIST_ORDER.sort}
            order={listSort ? (listOrder ?? "asc") : (listOrder ?? DEFAULT_LIST_ORDER.order)}
          />
        </>
      )}
    </div>
  );
}

function SearchResults({
  studyId,
  siteId,
  searchText,
}: {
  studyId: number;
  siteId: number;
  searchText: string;
}) {
  const { t } = useLingui();
  const results = useQuery(participantSearchQuery(studyId, siteId, searchText));

  if (results.isPending) {
    return (
      <p className="search-hint" role="status">
        <Trans id="search_searching">Searching…</Trans>
      </p>
    );
  }
  if (results.isError) {
    return (
      <p className="empty-state" role="status">
        <Trans id="search_failed">The search could not be done. Try again.</Trans>
      </p>
    );
  }
  const rows = results.data;
  if (rows.length === 0) {
    return (
      <p className="empty-state" role="status">
        <Trans id="clinro_no_matches_found">No matches found</Trans>
      </p>
    );
  }

  // On a phone the rows stack as cards, each value under its column's name.
  const columnLabels = {
    firstName: t({ id: "search_column_first_name", message: "First name" }),
    subjectId: t({ id: "search_column_subject_id", message: "Subject id" }),
    dateOfBirth: t({ id: "search_column_date_of_birth", message: "Date of birth" }),
  };

  return (
    <section className="search-results" aria-labelledby="search-results-heading">
      <h2 id="search-results-heading">
        {t({
          id: "search_results_count",
          message: plural(rows.length, { one: "# participant found", other: "# participants found" }),
        })}
      </h2>
      <div className="table-scroll">
        <table ref={rowLinksRef} className="data-table data-table--rows-link data-table--stack-on-phone">
          <thead>
            <tr>
              <th scope="col">
                <Trans id="search_column_last_name">Last name</Trans>
              </th>
              <th scope="col">
                <Trans id="search_column_first_name">First name</Trans>
              </th>
              <th scope="col">
                <Trans id="search_column_subject_id">Subject id</Trans>
              </th>
              <th scope="col">
                <Trans id="search_column_date_of_birth">Date of birth</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              // The last-name link opens the row (.row-link, row-links.ts): a click anywhere on the row, or
              // Enter on the focused link, opens the participant.
              <tr key={row.id}>
                <td>
                  <Link
                    className="row-link"
                    to="/studies/$studyId/sites/$siteId/participants/$participantId"
                    params={{
                      studyId: studyId,
                      siteId: siteId,
                      participantId: row.id,
                    }}
                  >
                    {row.lname}
                  </Link>
                </td>
                <td data-label={columnLabels.firstName}>{row.fname}</td>
                <td data-label={columnLabels.subjectId}>{row.subject_id}</td>
                <td data-label={columnLabels.dateOfBirth}>
                  {row.date_of_birth ? formatShortDate(row.date_of_birth) : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
