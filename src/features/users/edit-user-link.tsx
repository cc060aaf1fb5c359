import { Trans } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import type { StoredUser } from "../../auth/session-store.ts";
import { mayEditUser } from "../../../core/contracts/user-edit.ts";
import type { UserListItem } from "../../../core/contracts/users.ts";

/**
 * A row's way to edit its user (spec 01 section 4): one's own row leads to the profile, another
 * user's to the edit page when the rule allows it, and nothing when it does not.
 */
export function EditUserLink({ editor, user }: { editor: StoredUser; user: UserListItem }) {
  const nickname = user.nickname;
  if (user.id === editor.id) {
    return (
      <Link to="/users/profile" className="text-link">
        <Trans id="users_edit_own_profile">
          Edit your profile<span className="visually-hidden"> ({nickname})</span>
        </Trans>
      </Link>
    );
  }
  const editable = mayEditUser(
    { id: editor.id, scope: editor.scope ?? [], created_by: editor.created_by ?? null },
    user.id,
  );
  if (!editable) return null;
  return (
    <Link to="/users/$userId/edit" params={{ userId: user.id }} className="text-link">
      <Trans id="users_edit_user">
        Edit<span className="visually-hidden"> {nickname}</span>
      </Trans>
    </Link>
  );
}
