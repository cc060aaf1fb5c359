import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui as useLinguiRuntime } from "@lingui/react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Fragment } from "react";
import { usersListQuery } from "../../api/users-api.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import type { StaffStudyRole } from "../../../core/contracts/staff.ts";
import type { UserListItem } from "../../../core/contracts/users.ts";
import { DataTable, type TableColumn } from "../../widgets/table/data-table.tsx";
import { EditUserLink } from "./edit-user-link.tsx";
import { formatDateTime } from "./format-last-login.ts";
import { staffStatusLabels, studyRoleLabels } from "./role-labels.ts";
import "./users.css";
import {
  DEFAULT_USER_SORT,
  displayedRole,
  studyRoleGroups,
  userMatches,
  visibleUsers,
  type DisplayedRole,
  type UserSortKey,
} from "./user-list.ts";

const roleLabels: Record<DisplayedRole, MessageDescriptor> = {
  enroller: msg({ id: "role_enroller", message: "Enroller" }),
  researcher: msg({ id: "role_researcher", message: "Researcher" }),
  studyManager: msg({ id: "role_study_manager", message: "Study manager" }),
  administrator: msg({ id: "role_administrator", message: "Administrator" }),
};

const columnLabels: Record<UserSortKey, MessageDescriptor> = {
  nickname: msg({ id: "users_column_nickname", message: "Nickname" }),
  username: msg({ id: "users_column_email", message: "Email" }),
  role: msg({ id: "users_column_role", message: "Role" }),
  last_login: msg({ id: "users_column_last_login", message: "Last login" }),
};

/** /users: every user, for administrators; sortable by each column and filtered by a text. */
export function UsersPage() {
  const { t } = useLingui();
  const { i18n } = useLinguiRuntime();
  const users = useQuery(usersListQuery());
  const editor = useStoredUser();
  const roleName = (role: DisplayedRole) => i18n._(roleLabels[role]);
  // The first order: by nickname, ties by email; the column buttons sort from there.
  const rows = visibleUsers(users.data?.users ?? [], { filter: "", sort: DEFAULT_USER_SORT, roleName });
  const header = (key: UserSortKey) => i18n._(columnLabels[key]);
  // Each study role in a coordinator's words with the studies it is held in; a code the app does
  // not know shows as stored.
  const studyRoleLines = (user: UserListItem) =>
    studyRoleGroups(user).map(({ role, studies: list }) => {
      const words = role in studyRoleLabels ? i18n._(studyRoleLabels[role as StaffStudyRole]) : role;
      const studies = list.join(", ");
      return t({ id: "users_study_role_line", message: `${words} · ${studies}` });
    });
  const columns: TableColumn<UserListItem>[] = [
    {
      id: "nickname",
      header: header("nickname"),
      sortValue: (user) => user.nickname,
      // The name leads to the user's studies, sites, roles and status; the status shows under it.
      cell: (user) => (
        <span className="users-page__who">
          <AccessLink userId={user.id} nickname={user.nickname} />
          {user.status && user.status !== "active" ? (
            <span className={`staff-badge staff-badge--${user.status}`}>
              {i18n._(staffStatusLabels[user.status])}
            </span>
          ) : null}
        </span>
      ),
    },
    {
      id: "username",
      header: header("username"),
      sortValue: (user) => user.username,
      className: "users-table__email",
      cell: (user) => <EmailAddress address={user.username} />,
    },
    {
      id: "role",
      header: header("role"),
      sortValue: (user) => roleName(displayedRole(user.role)),
      cell: (user) => roleName(displayedRole(user.role)),
    },
    {
      // Beside the account role: the role in each study, as the study's staff know it (an
      // Impartial Witness's account role is Enroller).
      id: "study_roles",
      header: t({ id: "users_column_study_roles", message: "Study roles" }),
      className: "users-table__study-roles",
      sortValue: (user) => studyRoleLines(user).join(", ") || null,
      cell: (user) => {
        const lines = studyRoleLines(user);
        return lines.length > 0 ? (
          <ul className="users-page__study-roles">
            {lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        ) : (
          <span className="users-page__no-study">
            {t({ id: "users_no_study_role", message: "No study" })}
          </span>
        );
      },
    },
    {
      id: "last_login",
      header: header("last_login"),
      // Users who never signed in sort last whichever the direction.
      sortValue: (user) => (user.last_login ? Date.parse(user.last_login) : null),
      cell: (user) =>
        user.last_login
          ? formatDateTime(user.last_login)
          : t({ id: "users_never_logged_in", message: "Never Logged In" }),
    },
    {
      id: "actions",
      header: t({ id: "users_column_actions", message: "Actions" }),
      cell: (user) => (editor ? <EditUserLink editor={editor} user={user} /> : null),
    },
  ];

  return (
    <div className="page users-page">
      <h1 tabIndex={-1}>
        <Trans id="users_heading">Users</Trans>
      </h1>
      <div className="users-page__actions">
        <Link to="/users/invite" className="button button--primary">
          <Trans id="users_invite">Invite user</Trans>
        </Link>
        <Link to="/users/import" className="button button--secondary">
          <Trans id="users_import">Import staff (CSV)</Trans>
        </Link>
      </div>
      {users.data ? (
        <DataTable
          rows={rows}
          columns={columns}
          rowKey={(user) => String(user.id)}
          caption={t({ id: "users_caption", message: "Users, sortable by each column" })}
          className="users-table"
          stackOnPhone
          initialSort={{ id: "nickname" }}
          search={{
            label: t({ id: "users_filter_label", message: "Search users" }),
            matches: (user, text) => userMatches(user, text, roleName),
          }}
          status={(shown, total) => t({ id: "users_count", message: `${shown} of ${total} users shown` })}
        />
      ) : (
        <p className="users-page__count" role="status">
          {users.isError
            ? t({ id: "users_load_failed", message: "The users could not be loaded." })
            : t({ id: "users_loading", message: "Loading users…" })}
        </p>
      )}
    </div>
  );
}

/**
 * An email address that may wrap before its @ and before each dot of its domain in a narrow
 * column ("coordinator" / "@site" / ".example"), never inside a word.
 */
function EmailAddress({ address }: { address: string }) {
  const at = address.lastIndexOf("@");
  if (at <= 0) return address;
  const domainParts = address.slice(at).split(/(?=\.)/);
  return (
    <>
      {address.slice(0, at)}
      {domainParts.map((part, index) => (
        <Fragment key={index}>
          <wbr />
          {part}
        </Fragment>
      ))}
    </>
  );
}

/** A row's way to the user's studies, sites, roles and status: their name. */
function AccessLink({ userId, nickname }: { userId: number; nickname: string }) {
  return (
    <Link to="/users/$userId/access" params={{ userId }} className="text-link">
      {nickname}
    </Link>
  );
}
