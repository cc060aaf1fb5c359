/**
 * /users/{userId}/edit: an editor changes another user's nickname and role (spec 01 section 4,
 * "Editing users"). Offered only when the rule allows it (the user scope 'wu', and the target
 * is not the editor's own creator); the server checks the same rule. One's own profile is
 * edited on /users/profile.
 */
import { msg } from "@lingui/core/macro";
import { useLingui as useLinguiRuntime } from "@lingui/react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useId, useState, type FormEvent } from "react";
import { ApiError } from "../../api/request.ts";
import { useEditUserMutation } from "../../api/user-edit-api.ts";
import { usersListQuery } from "../../api/users-api.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import { assignableRole, editRefusal, type AssignableRole } from "../../../core/contracts/user-edit.ts";
import type { UserListItem } from "../../../core/contracts/users.ts";
import { AccessDeniedPanel } from "../../widgets/access-denied/access-denied-panel.tsx";
import { showToast, TOAST_SUCCESS_MS } from "../../widgets/toast/toast-store.ts";
import { roleLabels } from "./role-labels.ts";
import { displayedRole } from "./user-list.ts";

const savedMessage = msg({ id: "user_edit_saved", message: "The user was updated." });

export function EditUserPage({ userId }: { userId: number }) {
  const { t } = useLingui();
  const editor = useStoredUser();
  const users = useQuery(usersListQuery());
  const target = users.data?.users.find((user) => user.id === userId);
  const refusal = editor
    ? editRefusal({ id: editor.id, scope: editor.scope ?? [], created_by: editor.created_by ?? null }, userId)
    : "no_scope";

  const backLink = (
    <Link to="/users" className="button button--secondary">
      <Trans id="user_edit_back">Back to the users</Trans>
    </Link>
  );

  if (refusal) {
    return (
      <div className="page page--narrow">
        <AccessDeniedPanel
          message={
            refusal === "creator"
              ? t({
                  id: "user_edit_refused_creator",
                  message: "You may not edit the user who created your account.",
                })
              : t({ id: "user_edit_refused", message: "You may not edit other users." })
          }
          actions={backLink}
        >
          {null}
        </AccessDeniedPanel>
      </div>
    );
  }
  if (!target) {
    return (
      <div className="page page--narrow">
        <h1 tabIndex={-1}>
          <Trans id="user_edit_heading">Edit user</Trans>
        </h1>
        <p role="status">
          {users.isPending
            ? t({ id: "users_loading", message: "Loading users…" })
            : users.isError
              ? t({ id: "users_load_failed", message: "The users could not be loaded." })
              : t({ id: "user_edit_not_found", message: "This user does not exist." })}
        </p>
        {backLink}
      </div>
    );
  }
  return <EditUserForm key={target.id} target={target} />;
}

function EditUserForm({ target }: { target: UserListItem }) {
  const { t } = useLingui();
  const { i18n } = useLinguiRuntime();
  const navigate = useNavigate();
  const ids = { nickname: useId(), email: useId(), role: useId(), error: useId() };
  const mutation = useEditUserMutation();
  const initialRole = displayedRole(target.role);
  const [nickname, setNickname] = useState(target.nickname);
  const [role, setRole] = useState<AssignableRole>(initialRole);
  const trimmed = nickname.trim();
  const changes = {
    ...(trimmed !== target.nickname ? { nickname: trimmed } : {}),
    // The legacy 'edit' reads as administrator: keeping it is no change.
    ...(role !== initialRole ? { role } : {}),
  };
  const changed = Object.keys(changes).length > 0;
  const canSave = trimmed !== "" && changed && !mutation.isPending;

  const failure =
    mutation.error instanceof ApiError && mutation.error.status === 403
      ? t({ id: "user_edit_forbidden", message: "You may not edit this user." })
      : mutation.error
        ? t({ id: "user_edit_failed", message: "The user could not be saved. Try again later." })
        : null;

  // The form fires this and forgets it (`void`): the mutation holds the outcome.
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canSave) return;
    try {
      await mutation.mutateAsync({ userId: target.id, changes });
    } catch {
      return;
    }
    showToast(savedMessage, "success", TOAST_SUCCESS_MS);
    await navigate({ to: "/users" });
  }

  return (
    <div className="page page--narrow">
      <h1 tabIndex={-1}>
        <Trans id="user_edit_heading">Edit user</Trans>
      </h1>
      <form
        className="form card"
        onSubmit={(event) => void onSubmit(event)}
        noValidate
        aria-describedby={failure ? ids.error : undefined}
      >
        <div className="field">
          <label htmlFor={ids.email}>
            <Trans id="user_edit_email">Email</Trans>
          </label>
          <input id={ids.email} type="email" value={target.username} readOnly className="input--read-only" />
        </div>
        <div className="field">
          <label htmlFor={ids.nickname}>
            <Trans id="user_edit_nickname">Nickname</Trans>
          </label>
          <input
            id={ids.nickname}
            type="text"
            autoComplete="off"
            required
            aria-required="true"
            value={nickname}
            onChange={(event) => setNickname(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.role}>
            <Trans id="user_edit_role">Role</Trans>
          </label>
          <select
            id={ids.role}
            value={role}
            onChange={(event) => setRole(assignableRole.parse(event.target.value))}
          >
            {assignableRole.options.map((option) => (
              <option key={option} value={option}>
                {i18n._(roleLabels[option])}
              </option>
            ))}
          </select>
        </div>
        {failure ? (
          <p id={ids.error} className="field-error" role="alert">
            {failure}
          </p>
        ) : null}
        <div className="form__actions">
          <Link to="/users" className="button button--secondary">
            <Trans id="user_edit_cancel">Cancel</Trans>
          </Link>
          <button type="submit" className="button button--primary" disabled={!canSave}>
            {t({ id: "user_edit_save", message: "Save" })}
          </button>
        </div>
      </form>
    </div>
  );
}
