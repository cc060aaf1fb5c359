/**
 * /users/import: an administrator invites many users from a CSV (docs/staff-import.md). "Check
 * the file" is a dry run that lists whom it would invite; "Invite N users" sends it for real.
 * A file with any bad row invites nobody, and the page lists every bad row by line and column.
 */
import { msg, plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useNavigate } from "@tanstack/react-router";
import { useId, useState, type ChangeEvent } from "react";
import { ApiError } from "../../api/request.ts";
import { useImportStaff } from "../../api/staff-api.ts";
import {
  STAFF_CSV_COLUMNS,
  STAFF_IMPORT_MAX_CHARS,
  STAFF_INVITATION_DAYS,
  staffImportRefusal,
  type StaffImportResponse,
  type StaffImportRefusal,
} from "../../../core/contracts/staff.ts";
import { showToast, TOAST_SUCCESS_MS } from "../../widgets/toast/toast-store.ts";
import "./users.css";

export function StaffImportPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const ids = { file: useId(), hint: useId() };
  const importer = useImportStaff();
  const [csv, setCsv] = useState<string | null>(null);
  const [fileName, setFileName] = useState("");
  const [tooLarge, setTooLarge] = useState(false);
  const [plan, setPlan] = useState<StaffImportResponse | null>(null);
  const refusal: StaffImportRefusal | null =
    importer.error instanceof ApiError && importer.error.status === 400
      ? (staffImportRefusal.safeParse(importer.error.body).data ?? null)
      : null;

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    setPlan(null);
    importer.reset();
    if (!file) return;
    setFileName(file.name);
    const text = await file.text();
    setTooLarge(text.length > STAFF_IMPORT_MAX_CHARS);
    setCsv(text);
  }

  async function send(dryRun: boolean) {
    if (csv === null || tooLarge) return;
    let result;
    try {
      result = await importer.mutateAsync({ csv, dry_run: dryRun });
    } catch {
      setPlan(null);
      return;
    }
    if (dryRun) {
      setPlan(result);
      return;
    }
    const invited = result.invited;
    const days = STAFF_INVITATION_DAYS;
    showToast(
      msg({
        id: "staff_import_done",
        message: `${invited} invitations sent. The links work for ${days} days.`,
      }),
      "success",
      TOAST_SUCCESS_MS,
    );
    await navigate({ to: "/users" });
  }

  const count = plan?.invited ?? 0;
  const columns = STAFF_CSV_COLUMNS.join(", ");
  return (
    <div className="page staff-page">
      <h1 tabIndex={-1}>
        <Trans id="staff_import_heading">Import staff</Trans>
      </h1>
      <div className="card form">
        <p>
          <Trans id="staff_import_intro">
            A CSV file with a header row and one row per user and study, with the columns email, name,
            management_role (optional), study_id, role, site_ids and may_export (optional: yes gives the right
            to export the data of those sites). Check it first: nobody is invited until you confirm, and a
            file with a bad row invites nobody.
          </Trans>
        </p>
        <div className="field">
          <label htmlFor={ids.file}>
            <Trans id="staff_import_file_label">CSV file</Trans>
          </label>
          <input
            id={ids.file}
            type="file"
            accept=".csv,text/csv"
            aria-describedby={ids.hint}
            onChange={(event) => void onFile(event)}
          />
          <p id={ids.hint} className="field-hint">
            <Trans id="staff_import_columns">Columns: {columns}</Trans>
          </p>
        </div>
        {tooLarge ? (
          <p className="form-error" role="alert">
            <Trans id="staff_import_too_large">This file is too large: split it into smaller files.</Trans>
          </p>
        ) : null}
        <div className="form__actions staff-page__actions">
          <Link to="/users" className="button button--secondary">
            <Trans id="staff_cancel">Cancel</Trans>
          </Link>
          <button
            type="button"
            className="button button--secondary"
            disabled={csv === null || tooLarge || importer.isPending}
            onClick={() => void send(true)}
          >
            <Trans id="staff_import_check">Check the file</Trans>
          </button>
          {plan && count > 0 ? (
            <button
              type="button"
              className="button button--primary"
              disabled={importer.isPending}
              onClick={() => void send(false)}
            >
              {t({
                id: "staff_import_confirm",
                message: plural(count, { one: "Invite # user", other: "Invite # users" }),
              })}
            </button>
          ) : null}
        </div>
      </div>

      <div aria-live="polite">
        {refusal ? <ImportRefusal refusal={refusal} fileName={fileName} /> : null}
        {importer.error && !refusal ? (
          <p className="form-error" role="alert">
            {t({ id: "staff_import_failed", message: "The file could not be sent. Try again later." })}
          </p>
        ) : null}
        {plan ? <ImportPlan plan={plan} /> : null}
      </div>
    </div>
  );
}

function ImportRefusal({ refusal, fileName }: { refusal: StaffImportRefusal; fileName: string }) {
  const rows = refusal.bad_rows ?? [];
  return (
    <section className="card staff-import__refusal" aria-labelledby="staff-import-refusal">
      <h2 id="staff-import-refusal" className="staff-page__subheading">
        <Trans id="staff_import_refused_heading">Nobody was invited: {fileName} needs corrections</Trans>
      </h2>
      {rows.length === 0 ? (
        <p>{refusal.issues?.[0]?.message ?? refusal.message}</p>
      ) : (
        <ul className="staff-import__bad-rows">
          {rows.map((row) => (
            <li key={row.line}>
              <strong>
                <BadLine line={row.line} />
              </strong>
              {row.email ? ` (${row.email})` : ""}:{" "}
              {row.issues.map((issue) => `${issue.field}: ${issue.message}`).join("; ")}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ImportPlan({ plan }: { plan: StaffImportResponse }) {
  const { t } = useLingui();
  return (
    <section className="card" aria-labelledby="staff-import-plan">
      <h2 id="staff-import-plan" className="staff-page__subheading">
        {t({
          id: "staff_import_plan_heading",
          message: plural(plan.invited, {
            one: "The file is correct: # user would be invited",
            other: "The file is correct: # users would be invited",
          }),
        })}
      </h2>
      {/* Scrolls sideways on a phone: focusable, so a keyboard can scroll it too (WCAG 2.1.1). */}
      <div
        className="staff-import__table-wrap"
        role="region"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        aria-labelledby="staff-import-plan"
      >
        <table className="staff-import__table">
          <thead>
            <tr>
              <th scope="col">
                <Trans id="staff_import_col_email">Email</Trans>
              </th>
              <th scope="col">
                <Trans id="staff_import_col_name">Name</Trans>
              </th>
              <th scope="col">
                <Trans id="staff_import_col_studies">Studies (role: sites)</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {plan.users.map((user) => (
              <tr key={user.email}>
                <td>{user.email}</td>
                <td>{user.name}</td>
                <td>
                  {user.studies
                    .map((study) => `${study.study_id} (${study.role}: ${study.site_ids.join(", ")})`)
                    .join("; ")}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function BadLine({ line }: { line: number }) {
  return <Trans id="staff_import_bad_line">Line {line}</Trans>;
}
