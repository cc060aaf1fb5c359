/**
 * Pending work across participants: the site's open clinician instrument
 * instances (GET /control/pending_instruments, header version 3.4.0), oldest start first, each
 * opening its participant. The call answers every site of the study the user may see; this page
 * shows the site of the URL.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { pendingInstrumentsQuery } from "../../api/instruments-api.ts";
import type { PendingInstrument } from "../../../core/contracts/instrument-schemas.ts";
import { formatShortDate } from "../../i18n/format-date.ts";
import { DataTable, type TableColumn } from "../../widgets/table/data-table.tsx";
import "./pending-instruments.css";

type Props = { studyId: number; siteId: number };

export function PendingInstrumentsPage({ studyId, siteId }: Props) {
  const { t } = useLingui();
  const pending = useQuery(pendingInstrumentsQuery(studyId));
  const rows = (pending.data?.instruments ?? []).filter((row) => row.site_id === siteId);

  const columns: TableColumn<PendingInstrument>[] = [
    {
      // The subject id opens the participant: one column less, so the table fits an iPad portrait.
      id: "subjectId",
      header: t({ id: "search_column_subject_id", message: "Subject id" }),
      className: "pending-instruments__subject",
      sortValue: (row) => row.subject_id,
      cell: ({ participant_id: participantId, subject_id: subjectId, name }) => (
        <Link
          className="pending-instruments__open"
          to="/studies/$studyId/sites/$siteId/participants/$participantId"
          params={{ studyId, siteId, participantId }}
        >
          {subjectId || t({ id: "pending_instruments_no_subject_id", message: "None yet" })}
          <span className="visually-hidden">
            {" "}
            <Trans id="pending_instruments_open_hint">(open the participant, {name})</Trans>
          </span>
        </Link>
      ),
    },
    {
      id: "instrument",
      header: t({ id: "pending_instruments_column_instrument", message: "Instrument" }),
      sortValue: (row) => row.name,
      cell: (row) => row.name,
    },
    {
      id: "started",
      header: t({ id: "pending_instruments_column_started", message: "Open since" }),
      sortValue: (row) => row.start_date,
      cell: (row) => <span className="pending-instruments__date">{formatShortDate(row.start_date)}</span>,
    },
    {
      id: "expires",
      header: t({ id: "pending_instruments_column_expires", message: "Due by" }),
      sortValue: (row) => row.expiration,
      cell: (row) =>
        row.expiration ? (
          <span className="pending-instruments__date">{formatShortDate(row.expiration)}</span>
        ) : (
          t({ id: "pending_instruments_no_expiry", message: "No end date" })
        ),
    },
  ];

  return (
    <div className="page pending-instruments">
      <h1 tabIndex={-1}>
        <Trans id="pending_instruments_heading">Pending instruments</Trans>
      </h1>
      <p className="pending-instruments__intro">
        <Trans id="pending_instruments_intro">
          The clinician instruments open for this site's participants, oldest first. Open a participant to
          complete theirs.
        </Trans>
      </p>
      {pending.data === undefined ? (
        pending.isError ? (
          <p className="empty-state" role="status">
            <Trans id="pending_instruments_failed">
              The pending instruments could not be loaded. Try again.
            </Trans>
          </p>
        ) : (
          <p className="empty-state" role="status">
            <Trans id="pending_instruments_loading">Loading pending instruments…</Trans>
          </p>
        )
      ) : rows.length === 0 ? (
        <p className="empty-state" role="status">
          <Trans id="pending_instruments_empty">No instrument is pending at this site.</Trans>
        </p>
      ) : (
        <>
          <DataTable
            rows={rows}
            columns={columns}
            rowKey={(row) => String(row.instance_id)}
            caption={t({ id: "pending_instruments_caption", message: "Pending instruments of this site" })}
            className="pending-instruments__table"
            stackOnPhone
          />
          {pending.data.truncated ? (
            <p className="pending-instruments__more">
              <Trans id="pending_instruments_truncated">
                Only the oldest are listed: more instruments are pending than one page holds.
              </Trans>
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}
