/**
 * A site's participants from a CSV (docs/participant-import.md): choose or paste the file, check
 * it (a dry run: what would be created, or every bad row), then import it: every row, or none.
 */
import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { useId, useState } from "react";
import { mayEnrolAt, useImportParticipants } from "../../api/enrolment-api.ts";
import { ApiError } from "../../api/request.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import { AccessDeniedPanel } from "../../widgets/access-denied/access-denied-panel.tsx";
import { PARTICIPANT_CSV_COLUMNS, PARTICIPANT_IMPORT_MAX_CHARS } from "../../../core/contracts/enrolment.ts";
import { outcomeOfAnswer, outcomeOfRefusal, type ImportOutcome } from "./import-outcome.ts";
import "./enrolment.css";

type Props = { studyId: number; siteId: number };

export function ImportParticipantsPage({ studyId, siteId }: Props) {
  const { t } = useLingui();
  const user = useStoredUser();
  const mutation = useImportParticipants(studyId, siteId);
  const [csv, setCsv] = useState("");
  const [outcome, setOutcome] = useState<ImportOutcome | null>(null);
  const ids = { file: useId(), text: useId(), hint: useId() };

  const backToSearch = (
    <Link
      className="button button--secondary"
      to="/studies/$studyId/sites/$siteId/search"
      params={{ studyId, siteId }}
    >
      <Trans id="participant_back_to_search">Back to search</Trans>
    </Link>
  );
  if (!mayEnrolAt(user, studyId, siteId)) {
    return (
      <div className="page page--narrow">
        <AccessDeniedPanel
          message={t({
            id: "enrolment_forbidden",
            message:
              "Only enrollers, study managers, administrators and this study's coordinators add participants here.",
          })}
          actions={backToSearch}
        >
          {null}
        </AccessDeniedPanel>
      </div>
    );
  }

  const send = async (dryRun: boolean) => {
    setOutcome(null);
    try {
      setOutcome(outcomeOfAnswer(await mutation.mutateAsync({ csv, dryRun })));
    } catch (error) {
      setOutcome(
        error instanceof ApiError
          ? outcomeOfRefusal(error.status, error.body)
          : { kind: "refused", status: 0, message: error instanceof Error ? error.message : String(error) },
      );
    }
  };

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    setOutcome(null);
    setCsv(await file.text());
  };

  const tooLong = csv.length > PARTICIPANT_IMPORT_MAX_CHARS;
  const columns = PARTICIPANT_CSV_COLUMNS.join(", ");
  return (
    <div className="page page--narrow enrolment-page">
      <h1 tabIndex={-1}>
        <Trans id="enrolment_import_heading">Import participants</Trans>
      </h1>
      <p id={ids.hint}>
        <Trans id="enrolment_import_hint">
          A CSV file with a header row naming the columns {columns}. Dates are written YYYY-MM-DD; gender is
          m, f, o or empty. Check the file first: nothing is added until every row is right.
        </Trans>
      </p>
      <div className="form card">
        <div className="field">
          <label htmlFor={ids.file}>
            <Trans id="enrolment_import_file">CSV file</Trans>
          </label>
          <input
            id={ids.file}
            className="enrolment-import__file"
            type="file"
            accept=".csv,text/csv"
            onChange={(event) => void readFile(event.target.files?.[0])}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.text}>
            <Trans id="enrolment_import_text">The file's text (you can also paste it here)</Trans>
          </label>
          <textarea
            id={ids.text}
            className="enrolment-import__text"
            value={csv}
            spellCheck={false}
            aria-describedby={ids.hint}
            aria-invalid={tooLong ? true : undefined}
            onChange={(event) => {
              setCsv(event.target.value);
              setOutcome(null);
            }}
          />
          {tooLong ? (
            <p className="field-error" role="alert">
              <Trans id="enrolment_import_too_long">This file is too large: cut it into smaller files.</Trans>
            </p>
          ) : null}
        </div>
        <div className="form__actions">
          {backToSearch}
          <button
            type="button"
            className="button button--primary"
            disabled={!csv.trim() || tooLong || mutation.isPending}
            onClick={() => void send(true)}
          >
            <Trans id="enrolment_import_check">Check the file</Trans>
          </button>
        </div>
      </div>
      <ImportOutcomeView outcome={outcome} busy={mutation.isPending} onImport={() => void send(false)} />
    </div>
  );
}

function ImportOutcomeView({
  outcome,
  busy,
  onImport,
}: {
  outcome: ImportOutcome | null;
  busy: boolean;
  onImport: () => void;
}) {
  const { t } = useLingui();
  if (!outcome) return null;
  if (outcome.kind === "bad-rows") {
    return (
      <section className="enrolment-notice enrolment-notice--error" aria-labelledby="import-bad-rows-heading">
        <div role="alert">
          <h2 id="import-bad-rows-heading">
            {t({
              id: "enrolment_import_bad_rows",
              message: plural(outcome.rows.length, {
                one: "# row is not right: nothing was added",
                other: "# rows are not right: nothing was added",
              }),
            })}
          </h2>
        </div>
        <ul className="enrolment-import__bad-rows">
          {outcome.rows.map(({ line, subject_id, issues }) => (
            <li key={line}>
              {t({ id: "enrolment_import_line", message: `Line ${line}` })}
              {subject_id ? ` (${subject_id})` : ""}:{" "}
              {issues.map((issue) => `${issue.field}: ${issue.message}`).join("; ")}
            </li>
          ))}
        </ul>
      </section>
    );
  }
  if (outcome.kind === "refused") {
    return (
      <p className="enrolment-notice enrolment-notice--error" role="alert">
        <Trans id="enrolment_import_refused">The file was not accepted.</Trans> {outcome.message}
      </p>
    );
  }
  const { answer } = outcome;
  return (
    <section className="enrolment-notice" aria-labelledby="import-result-heading">
      <div role="status">
        <h2 id="import-result-heading">
          {outcome.kind === "preview"
            ? t({
                id: "enrolment_import_preview",
                message: plural(answer.created, {
                  one: "The file is right: # participant would be added",
                  other: "The file is right: # participants would be added",
                }),
              })
            : t({
                id: "enrolment_import_done",
                message: plural(answer.created, {
                  one: "# participant added",
                  other: "# participants added",
                }),
              })}
        </h2>
      </div>
      <div className="table-scroll">
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">
                <Trans id="enrolment_import_column_line">Line</Trans>
              </th>
              <th scope="col">
                <Trans id="enrolment_subject_id">Subject id</Trans>
              </th>
              <th scope="col">
                <Trans id="enrolment_last_name">Last name</Trans>
              </th>
              <th scope="col">
                <Trans id="enrolment_first_name">First name</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {answer.participants.map((row) => (
              <tr key={row.line}>
                <td>{row.line}</td>
                <td>{row.subject_id}</td>
                <td>{row.lname}</td>
                <td>{row.fname}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {outcome.kind === "preview" ? (
        <div className="form__actions">
          <button type="button" className="button button--primary" disabled={busy} onClick={onImport}>
            {t({
              id: "enrolment_import_submit",
              message: plural(answer.created, {
                one: "Import # participant",
                other: "Import # participants",
              }),
            })}
          </button>
        </div>
      ) : null}
    </section>
  );
}
