import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useId } from "react";
import { participantListQuery } from "../../api/participants-api.ts";
import { formatShortDate } from "../../i18n/format-date.ts";
import { rowLinksRef } from "../../widgets/table/row-links.ts";
import type {
  ParticipantListOrder,
  ParticipantListSort,
} from "../../../core/contracts/participant-list-sorts.ts";
import { listOrderAfterHeaderPress, parseSortChoice, sortChoiceOf } from "./list-sort.ts";

type Props = {
  studyId: number;
  siteId: number;
  sort: ParticipantListSort;
  order: ParticipantListOrder;
};

/**
 * The site's participants, sorted and paged, shown while no search is made:
 * what REDCap's and Castor's record lists offer beside their search. The server sorts and pages
 * (keyset, "Load more" asks for the next page); the order is in the URL (?sort=&order=), so it
 * is kept when the user comes back from a participant. The pages loaded are persisted: the list
 * shows offline from the device's cache.
 */
export function ParticipantList({ studyId, siteId, sort, order }: Props) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const sortSelectId = useId();
  const statusId = useId();
  // Another order keeps the rows shown until its first page comes: the table (and the header
  // button just pressed, with the focus) stays in place.
  const list = useInfiniteQuery({
    ...participantListQuery(studyId, siteId, sort, order),
    placeholderData: keepPreviousData,
  });

  const setOrder = (next: { sort: ParticipantListSort; order: ParticipantListOrder }) => {
    void navigate({
      to: "/studies/$studyId/sites/$siteId/search",
      params: { studyId, siteId },
      search: { sort: next.sort, order: next.order },
      replace: true,
    });
  };

  const columnLabels = {
    lastName: t({ id: "search_column_last_name", message: "Last name" }),
    firstName: t({ id: "search_column_first_name", message: "First name" }),
    subjectId: t({ id: "search_column_subject_id", message: "Subject id" }),
    dateOfBirth: t({ id: "search_column_date_of_birth", message: "Date of birth" }),
    enrolled: t({ id: "participant_list_column_enrolled", message: "Enrolled" }),
  };
  const sortChoices = [
    {
      value: "last_name:asc",
      label: t({ id: "participant_list_sort_last_name_asc", message: "Last name, A to Z" }),
    },
    {
      value: "last_name:desc",
      label: t({ id: "participant_list_sort_last_name_desc", message: "Last name, Z to A" }),
    },
    {
      value: "subject_id:asc",
      label: t({ id: "participant_list_sort_subject_id_asc", message: "Subject id, ascending" }),
    },
    {
      value: "subject_id:desc",
      label: t({ id: "participant_list_sort_subject_id_desc", message: "Subject id, descending" }),
    },
    {
      value: "enrolled:desc",
      label: t({ id: "participant_list_sort_enrolled_desc", message: "Enrolled, newest first" }),
    },
    {
      value: "enrolled:asc",
      label: t({ id: "participant_list_sort_enrolled_asc", message: "Enrolled, oldest first" }),
    },
  ];

  const heading = (
    <h2 id="participant-list-heading">
      <Trans id="participant_list_heading">Participants at this site</Trans>
    </h2>
  );

  if (list.isPending) {
    return (
      <section className="participant-list" aria-labelledby="participant-list-heading">
        {heading}
        <p className="search-hint" role="status">
          <Trans id="participant_list_loading">Loading participants…</Trans>
        </p>
      </section>
    );
  }
  if (list.isError && !list.data) {
    return (
      <section className="participant-list" aria-labelledby="participant-list-heading">
        {heading}
        <p className="empty-state" role="status">
          <Trans id="participant_list_failed">The participants could not be loaded. Try again.</Trans>
        </p>
      </section>
    );
  }

  const pages = list.data.pages;
  const rows = pages.flatMap((page) => page.participants);
  const shown = rows.length;
  const total = pages[0]?.total ?? shown;
  if (total === 0) {
    return (
      <section className="participant-list" aria-labelledby="participant-list-heading">
        {heading}
        <p className="empty-state" role="status">
          <Trans id="participant_list_empty">No participants at this site yet.</Trans>
        </p>
      </section>
    );
  }

  const sortHeader = (column: ParticipantListSort, label: string) => {
    const active = sort === column;
    return (
      <th scope="col" aria-sort={active ? (order === "asc" ? "ascending" : "descending") : "none"}>
        <button
          type="button"
          className="sort-button"
          onClick={() => setOrder(listOrderAfterHeaderPress(column, sort, order))}
        >
          {label}
          <span className="sort-button__icon" aria-hidden="true">
            {active ? (order === "asc" ? "▲" : "▼") : "↕"}
          </span>
        </button>
      </th>
    );
  };

  return (
    <section className="participant-list" aria-labelledby="participant-list-heading">
      <div className="participant-list__head">
        {heading}
        {/* On a phone the rows are cards without column headers: the order is chosen here. */}
        <div className="participant-list__sort">
          <label htmlFor={sortSelectId}>
            <Trans id="participant_list_sort_label">Sort by</Trans>
          </label>
          <select
            id={sortSelectId}
            value={sortChoiceOf(sort, order)}
            onChange={(event) => {
              const choice = parseSortChoice(event.target.value);
              if (choice) setOrder(choice);
            }}
          >
            {sortChoices.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p id={statusId} className="participant-list__status" role="status">
        {t({
          id: "participant_list_shown",
          message: plural(total, {
            one: `Showing ${shown} of # participant`,
            other: `Showing ${shown} of # participants`,
          }),
        })}
      </p>
      <div className="table-scroll">
        <table
          ref={rowLinksRef}
          className="data-table data-table--rows-link data-table--stack-on-phone participant-list__table"
          aria-describedby={statusId}
          aria-busy={list.isPlaceholderData || undefined}
        >
          <caption className="visually-hidden">
            <Trans id="participant_list_heading">Participants at this site</Trans>
          </caption>
          <thead>
            <tr>
              {sortHeader("last_name", columnLabels.lastName)}
              <th scope="col">{columnLabels.firstName}</th>
              {sortHeader("subject_id", columnLabels.subjectId)}
              <th scope="col">{columnLabels.dateOfBirth}</th>
              {sortHeader("enrolled", columnLabels.enrolled)}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              // The last-name link opens the row (.row-link, row-links.ts): a tap anywhere on the
              // row, or Enter on the focused link, opens this participant.
              <tr key={row.id}>
                <td>
                  <Link
                    className="row-link"
                    to="/studies/$studyId/sites/$siteId/participants/$participantId"
                    params={{ studyId, siteId, participantId: row.id }}
                  >
                    {row.lname}
                  </Link>
                </td>
                <td data-label={columnLabels.firstName}>{row.fname}</td>
                <td data-label={columnLabels.subjectId} className="participant-list__subject">
                  {row.subject_id}
                </td>
                <td data-label={columnLabels.dateOfBirth} className="participant-list__date">
                  {row.date_of_birth ? formatShortDate(row.date_of_birth) : ""}
                </td>
                <td data-label={columnLabels.enrolled} className="participant-list__date">
                  {row.enrolled_at ? formatShortDate(row.enrolled_at) : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.hasNextPage ? (
        <div className="participant-list__more">
          <button
            type="button"
            className="button button--secondary"
            disabled={list.isFetchingNextPage}
            onClick={() => void list.fetchNextPage()}
          >
            {list.isFetchingNextPage ? (
              <Trans id="participant_list_loading_more">Loading…</Trans>
            ) : (
              <Trans id="participant_list_load_more">Load more</Trans>
            )}
          </button>
          {list.isFetchNextPageError ? (
            <p className="participant-list__error" role="alert">
              <Trans id="participant_list_more_failed">
                More participants could not be loaded. Check the connection and try again.
              </Trans>
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
