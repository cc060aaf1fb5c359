/**
 * /users/invite: an administrator invites a user (name, email, management role, and per study a
 * role and the sites). The server makes the account and mails the activation link, which works
 * for STAFF_INVITATION_DAYS days; the user list then says "Invitation sent".
 */
import { msg } from "@lingui/core/macro";
import { useLingui as useLinguiRuntime } from "@lingui/react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useId, useState, type FormEvent } from "react";
import { ApiError } from "../../api/request.ts";
import { assignableStudiesQuery, useInviteStaff } from "../../api/staff-api.ts";
import { errorBody } from "../../../core/contracts/errors.ts";
import { DEFAULT_MANAGEMENT_ROLE, STAFF_INVITATION_DAYS } from "../../../core/contracts/staff.ts";
import { assignableRole, type AssignableRole } from "../../../core/contracts/user-edit.ts";
import { showToast, TOAST_SUCCESS_MS } from "../../widgets/toast/toast-store.ts";
import { roleLabels } from "./role-labels.ts";
import { hasProblems, staffFormProblems, studiesRequest, type StudyChoices } from "./staff-form.ts";
import { StudyAccessFields } from "./study-access-fields.tsx";
import { ManagementRoleHint } from "./management-role-hint.tsx";
import "./users.css";

/** The server's refusal of an email, in the reader's language. */
function emailRefusal(error: unknown) {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const body = errorBody.safeParse(error.body);
  const issue = body.success ? body.data.issues?.find((candidate) => candidate.path === "email") : undefined;
  if (!issue) return null;
  return issue.message.includes("deactivated")
    ? msg({
        id: "staff_invite_email_deactivated",
        message: "This email belongs to a deactivated user: reactivate them from the user list instead.",
      })
    : msg({ id: "staff_invite_email_taken", message: "This email already has an account." });
}

export function InviteUserPage() {
  const { t } = useLingui();
  const { i18n } = useLinguiRuntime();
  const navigate = useNavigate();
  const studies = useQuery(assignableStudiesQuery());
  const invite = useInviteStaff();
  const ids = {
    name: useId(),
    email: useId(),
    role: useId(),
    nameError: useId(),
    emailError: useId(),
    error: useId(),
  };
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [managementRole, setManagementRole] = useState<AssignableRole>(DEFAULT_MANAGEMENT_ROLE);
  const [choices, setChoices] = useState<StudyChoices>({});
  const [submitted, setSubmitted] = useState(false);
  const problems = staffFormProblems({ name, email, studies: choices });
  const shown = submitted ? problems : { studies: {} };
  const emailTaken = emailRefusal(invite.error);
  const failure =
    invite.error && !emailTaken
      ? invite.error instanceof ApiError && invite.error.status === 403
        ? t({ id: "staff_forbidden", message: "Only administrators may manage users." })
        : t({
            id: "staff_invite_failed",
            message: "The invitation could not be sent. Check the form and try again.",
          })
      : null;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (hasProblems(problems) || invite.isPending) return;
    let member;
    try {
      member = await invite.mutateAsync({
        name: name.trim(),
        email: email.trim(),
        management_role: managementRole,
        studies: studiesRequest(choices),
      });
    } catch {
      return;
    }
    const invited = member.username;
    const days = STAFF_INVITATION_DAYS;
    showToast(
      msg({
        id: "staff_invite_sent",
        message: `Invitation sent to ${invited}. The link works for ${days} days.`,
      }),
      "success",
      TOAST_SUCCESS_MS,
    );
    await navigate({ to: "/users" });
  }

  const emailMessage = shown.email
    ? t({ id: "staff_email_invalid", message: "Enter an email address." })
    : emailTaken
      ? i18n._(emailTaken)
      : null;

  return (
    <div className="page page--narrow staff-page">
      <h1 tabIndex={-1}>
        <Trans id="staff_invite_heading">Invite user</Trans>
      </h1>
      <p>
        <Trans id="staff_invite_intro">
          We mail the person a link to choose their password. The link works for {STAFF_INVITATION_DAYS} days;
          you can send a new one from their page (their name in the user list).
        </Trans>
      </p>
      <form className="form card" onSubmit={(event) => void onSubmit(event)} noValidate>
        <div className="field">
          <label htmlFor={ids.name}>
            <Trans id="staff_name_label">Name</Trans>
          </label>
          <input
            id={ids.name}
            type="text"
            autoComplete="off"
            required
            aria-required="true"
            aria-invalid={shown.name ? true : undefined}
            aria-describedby={shown.name ? ids.nameError : undefined}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
          {shown.name ? (
            <p id={ids.nameError} className="field-error">
              <Trans id="staff_name_missing">Enter the person's name.</Trans>
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor={ids.email}>
            <Trans id="staff_email_label">Email (their username)</Trans>
          </label>
          <input
            id={ids.email}
            type="email"
            autoComplete="off"
            required
            aria-required="true"
            aria-invalid={emailMessage ? true : undefined}
            aria-describedby={emailMessage ? ids.emailError : undefined}
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              if (emailTaken) invite.reset();
            }}
          />
          {emailMessage ? (
            <p id={ids.emailError} className="field-error" role={emailTaken ? "alert" : undefined}>
              {emailMessage}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor={ids.role}>
            <Trans id="staff_management_role_label">Management role</Trans>
          </label>
          <select
            id={ids.role}
            value={managementRole}
            onChange={(event) => setManagementRole(assignableRole.parse(event.target.value))}
            aria-describedby={`${ids.role}-hint`}
          >
            {assignableRole.options.map((option) => (
              <option key={option} value={option}>
                {i18n._(roleLabels[option])}
              </option>
            ))}
          </select>
          <ManagementRoleHint id={`${ids.role}-hint`} role={managementRole} />
        </div>
        <h2 className="staff-page__subheading">
          <Trans id="staff_studies_heading">Studies and sites</Trans>
        </h2>
        {studies.data ? (
          <StudyAccessFields
            studies={studies.data.studies}
            choices={choices}
            onChange={setChoices}
            missingSites={new Set(Object.keys(shown.studies).map(Number))}
          />
        ) : (
          <p role="status">
            {studies.isError
              ? t({ id: "staff_studies_failed", message: "The studies could not be loaded." })
              : t({ id: "staff_studies_loading", message: "Loading studies…" })}
          </p>
        )}
        {failure ? (
          <p id={ids.error} className="form-error" role="alert">
            {failure}
          </p>
        ) : null}
        <div className="form__actions staff-page__actions">
          <Link to="/users" className="button button--secondary">
            <Trans id="staff_cancel">Cancel</Trans>
          </Link>
          <button type="submit" className="button button--primary" disabled={invite.isPending}>
            {invite.isPending
              ? t({ id: "staff_invite_sending", message: "Sending…" })
              : t({ id: "staff_invite_submit", message: "Send invitation" })}
          </button>
        </div>
      </form>
    </div>
  );
}
