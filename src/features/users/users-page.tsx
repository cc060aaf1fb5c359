import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui as useLinguiRuntime } from "@lingui/react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { usersListQuery } from "../../api/users-api.ts";
import { formatDateTime } from "./format-last-login.ts";
import {
  DEFAULT_USER_SORT,
  displayedRole,
  nextSort,
  visibleUsers,
  type DisplayedRole,
  type UserSort,
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

const COLUMNS: UserSortKey[] = ["nickname", "username", "role", "last_login"];

/** /users: every user, for administrators; sortable by each column and filtered by a text. */
export function UsersPage() {
  const { t } = useLingui();
  const { i18n } = useLinguiRuntime();
  const filterId = useId();
  const countId = useId();
  const users = useQuery(usersListQuery());
  const [filter, setFilter] = useState("");
  const [sort, setSort] = useState<UserSort>(DEFAULT_USER_SORT);
  const roleName = (role: DisplayedRole) => i18n._(roleLabels[role]);
  const rows = visibleUsers(users.data?.users ?? [], { filter, sort, roleName });
  const shown = rows.length;
  const total = users.data?.users.length ?? 0;

  return (
    <div className="page users-page">
      <h1 tabIndex={-1}>
        <Trans id="users_heading">Users</Trans>
      </h1>
      <div className="field users-page__filter">
        <label htmlFor={filterId}>
          <Trans id="users_filter_label">Search users</Trans>
        </label>
        <input
          id={filterId}
          type="search"
          value={filter}
          aria-describedby={countId}
          onChange={(event) => setFilter(event.target.value)}
        />
      </div>
      <p id={countId} className="users-page__count" role="status">
        {users.isPending
          ? t({ id: "users_loading", message: "Loading users…" })
          : users.isError
            ? t({ id: "users_load_failed", message: "The users could not be loaded." })
            : t({
                id: "users_count",
                message: `${shown} of ${total} users shown`,
              })}
      </p>
      {users.data ? (
        // Scrolls sideways on narrow screens; focusable so that the keyboard can scroll it too.
        <div
          className="table-scroll"
          role="region"
          // A scrolling region must take focus for keyboard users to scroll it (WCAG 2.1.1).
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
          tabIndex={0}
          aria-label={t({ id: "users_table_region", message: "User list" })}
        >
          <table className="data-table users-table">
            <caption className="visually-hidden">
              <Trans id="users_caption">Users, sortable by each column</Trans>
            </caption>
            <thead>
              <tr>
                {COLUMNS.map((key) => {
                  const active = sort.key === key;
                  return (
                    <th key={key} scope="col" aria-sort={active ? sort.direction : "none"}>
                      <button
                        type="button"
                        className="sort-button"
                        onClick={() => setSort((current) => nextSort(current, key))}
                      >
                        {i18n._(columnLabels[key])}
                        <span className="sort-button__icon" aria-hidden="true">
                          {active ? (sort.direction === "ascending" ? "▲" : "▼") : "↕"}
                        </span>
                      </button>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {rows.map((user) => (
                <tr key={user.id}>
                  <td>{user.nickname}</td>
                  <td>{user.username}</td>
                  <td>{roleName(displayedRole(user.role))}</td>
                  <td>
                    {user.last_login
                      ? formatDateTime(user.last_login)
                      : t({ id: "users_never_logged_in", message: "Never Logged In" })}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
