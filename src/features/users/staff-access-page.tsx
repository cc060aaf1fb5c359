/**
 * /users/{userId}/access: an administrator sees where a user's account stands and changes their
 * management role, and per study their role and sites (a study set to "No access" is taken
 * away). Here too: resend an invitation not yet followed, deactivate a user (their sessions end
 * at their next request; what they signed and the audit trail stay), reactivate one. Not for the
 * user who created one's own account (spec 01 section 4, isOwnCreator): the server refuses
 * every change to them, so the page says so instead of offering them.
 */
import { msg } from "@lingui/core/macro";
import { useLingui as useLinguiRuntime } from "@lingui/react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useId, useRef, useState, type FormEvent } from "react";
import { ApiError } from "../../api/request.ts";
import {
  assignableStudiesQuery,
  staffMemberQuery,
  useDeactivateUser,
  useReactivateUser,
  useResendInvitation,
  useSetStaffAccess,
} from "../../api/staff-api.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import { STAFF_INVITATION_DAYS, type StaffMember } from "../../../core/contracts/staff.ts";
import { assignableRole, isOwnCreator, type AssignableRole } from "../../../core/contracts/user-edit.ts";
import { AccessDeniedPanel } from "../../widgets/access-denied/access-denied-panel.tsx";
import { Modal } from "../../widgets/modal/modal.tsx";
import { showToast, TOAST_SUCCESS_MS } from "../../widgets/toast/toast-store.ts";
import { formatDateTime } from "./format-last-login.ts";
import { ManagementRoleHint } from "./management-role-hint.tsx";
import { roleLabels, staffStatusLabels } from "./role-labels.ts";
import {
  choicesOf,
  hasProblems,
  staffFormProblems,
  studiesRequest,
  type StudyChoices,
} from "./staff-form.ts";
import { StudyAccessFields } from "./study-access-fields.tsx";
import { displayedRole } from "./user-list.ts";
import "./users.css";

export function StaffAccessPage({ userId }: { userId: number }) {
  const { t } = useLingui();
  const self = useStoredUser();
  const member = useQuery(staffMemberQuery(userId));
  const studies = useQuery(assignableStudiesQuery());
  const backLink = (
    <Link to="/users" className="button button--secondary">
      <Trans id="user_edit_back">Back to the users</Trans>
    </Link>
  );

  if (self && isOwnCreator({ created_by: self.created_by ?? null }, userId)) {
    return (
      <div className="page page--narrow staff-page">
        <AccessDeniedPanel
          message={t({
            id: "user_edit_refused_creator",
            message: "You may not edit the user who created your account.",
          })}
          actions={backLink}
        >
          {null}
        </AccessDeniedPanel>
      </div>
    );
  }
  if (!member.data || !studies.data) {
    const missing = member.error instanceof ApiError && member.error.status === 404;
    return (
      <div className="page page--narrow staff-page">
        <h1 tabIndex={-1}>
          <Trans id="staff_access_heading_plain">User access</Trans>
        </h1>
        <p role="status">
          {missing
            ? t({ id: "user_edit_not_found", message: "This user does not exist." })
            : member.isError || studies.isError
              ? t({ id: "staff_access_load_failed", message: "The user could not be loaded." })
              : t({ id: "staff_access_loading", message: "Loading the user…" })}
        </p>
        {backLink}
      </div>
    );
  }
  const who = member.data.name || member.data.username;
  return (
    <div className="page page--narrow staff-page">
      <h1 tabIndex={-1}>
        <Trans id="staff_access_heading">Access of {who}</Trans>
      </h1>
      <AccountStatus member={member.data} />
      <AccessForm key={member.data.id} member={member.data} studies={studies.data.studies} />
    </div>
  );
}

function AccountStatus({ member }: { member: StaffMember }) {
  const { t } = useLingui();
  const { i18n } = useLinguiRuntime();
  const self = useStoredUser();
  const resend = useResendInvitation();
  const deactivate = useDeactivateUser();
  const reactivate = useReactivateUser();
  const [confirming, setConfirming] = useState(false);
  const deactivateButton = useRef<HTMLButtonElement>(null);
  const failed = resend.error ?? deactivate.error ?? reactivate.error;
  const username = member.username;
  const days = STAFF_INVITATION_DAYS;
  const linkUntil = member.invitation_expires_at ? formatDateTime(member.invitation_expires_at) : "";
  const deactivatedSince = member.deactivated_at ? formatDateTime(member.deactivated_at) : "";

  const sent = async () => {
    try {
      await resend.mutateAsync(member.id);
    } catch {
      return;
    }
    showToast(
      msg({
        id: "staff_resend_done",
        message: `A new link was sent to ${username}. It works for ${days} days; the earlier one no longer works.`,
      }),
      "success",
      TOAST_SUCCESS_MS,
    );
  };

  return (
    <section className="card staff-status" aria-labelledby="staff-status-heading">
      <h2 id="staff-status-heading" className="staff-page__subheading">
        <Trans id="staff_status_heading">Account</Trans>
      </h2>
      <dl className="staff-status__facts">
        <dt>
          <Trans id="staff_email_plain">Email</Trans>
        </dt>
        <dd>{member.username}</dd>
        <dt>
          <Trans id="staff_status_label">Status</Trans>
        </dt>
        <dd>
          <span className={`staff-badge staff-badge--${member.status}`}>
            {i18n._(staffStatusLabels[member.status])}
          </span>
          {member.status === "invited" && member.invitation_expires_at ? (
            <span className="staff-status__detail">
              {" "}
              <Trans id="staff_status_invited_until">(the link works until {linkUntil})</Trans>
            </span>
          ) : null}
          {member.status === "deactivated" && member.deactivated_at ? (
            <span className="staff-status__detail">
              {" "}
              <Trans id="staff_status_deactivated_on">(since {deactivatedSince})</Trans>
            </span>
          ) : null}
        </dd>
      </dl>
      {failed ? (
        <p className="form-error" role="alert">
          {t({ id: "staff_status_failed", message: "That did not work. Reload the page and try again." })}
        </p>
      ) : null}
      <div className="staff-status__actions">
        {member.status === "invited" || member.status === "invitation_expired" ? (
          <button
            type="button"
            className="button button--secondary"
            disabled={resend.isPending}
            onClick={() => void sent()}
          >
            <Trans id="staff_resend">Resend invitation</Trans>
          </button>
        ) : null}
        {member.status === "deactivated" ? (
          <button
            type="button"
            className="button button--secondary"
            disabled={reactivate.isPending}
            onClick={() => reactivate.mutate(member.id)}
          >
            <Trans id="staff_reactivate">Reactivate</Trans>
          </button>
        ) : member.id !== self?.id ? (
          <button
            ref={deactivateButton}
            type="button"
            className="button button--danger"
            onClick={() => setConfirming(true)}
          >
            <Trans id="staff_deactivate">Deactivate</Trans>
          </button>
        ) : null}
      </div>
      {confirming ? (
        <Modal
          title={t({ id: "staff_deactivate_heading", message: `Deactivate ${username}?` })}
          onClose={() => setConfirming(false)}
          returnFocusTo={deactivateButton}
          actions={
            <>
              <button type="button" className="button button--secondary" onClick={() => setConfirming(false)}>
                <Trans id="modal_cancel">Cancel</Trans>
              </button>
              <button
                type="button"
                className="button button--danger"
                disabled={deactivate.isPending}
                onClick={() => {
                  setConfirming(false);
                  deactivate.mutate(member.id);
                }}
              >
                <Trans id="staff_deactivate">Deactivate</Trans>
              </button>
            </>
          }
        >
          <p>
            <Trans id="staff_deactivate_body">
              They are signed out at their next action and cannot sign in. What they signed and the audit
              trail stay. You can reactivate them later.
            </Trans>
          </p>
        </Modal>
      ) : null}
    </section>
  );
}

function AccessForm({
  member,
  studies,
}: {
  member: StaffMember;
  studies: Parameters<typeof StudyAccessFields>[0]["studies"];
}) {
  const { t } = useLingui();
  const { i18n } = useLinguiRuntime();
  const self = useStoredUser();
  const save = useSetStaffAccess();
  const roleId = useId();
  const [managementRole, setManagementRole] = useState<AssignableRole>(displayedRole(member.role));
  const [choices, setChoices] = useState<StudyChoices>(choicesOf(member));
  const [submitted, setSubmitted] = useState(false);
  const problems = staffFormProblems({ studies: choices });
  const ownAccount = member.id === self?.id;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (hasProblems(problems) || save.isPending) return;
    try {
      await save.mutateAsync({
        userId: member.id,
        body: { management_role: managementRole, studies: studiesRequest(choices) },
      });
    } catch {
      return;
    }
    showToast(
      msg({ id: "staff_access_saved", message: "The user's access was saved." }),
      "success",
      TOAST_SUCCESS_MS,
    );
  }

  return (
    <form className="form card" onSubmit={(event) => void onSubmit(event)} noValidate>
      <h2 className="staff-page__subheading">
        <Trans id="staff_access_form_heading">Roles and sites</Trans>
      </h2>
      <div className="field">
        <label htmlFor={roleId}>
          <Trans id="staff_management_role_label">Management role</Trans>
        </label>
        <select
          id={roleId}
          value={managementRole}
          disabled={ownAccount}
          aria-describedby={`${roleId}-hint`}
          onChange={(event) => setManagementRole(assignableRole.parse(event.target.value))}
        >
          {assignableRole.options.map((option) => (
            <option key={option} value={option}>
              {i18n._(roleLabels[option])}
            </option>
          ))}
        </select>
        <ManagementRoleHint id={`${roleId}-hint`} role={managementRole} />
      </div>
      <StudyAccessFields
        studies={studies}
        choices={choices}
        onChange={setChoices}
        missingSites={new Set(submitted ? Object.keys(problems.studies).map(Number) : [])}
      />
      {save.error ? (
        <p className="form-error" role="alert">
          {t({
            id: "staff_access_failed",
            message: "The access could not be saved. Check the form and try again.",
          })}
        </p>
      ) : null}
      <div className="form__actions staff-page__actions">
        <Link to="/users" className="button button--secondary">
          <Trans id="user_edit_back">Back to the users</Trans>
        </Link>
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          {t({ id: "staff_access_save", message: "Save access" })}
        </button>
      </div>
    </form>
  );
}
