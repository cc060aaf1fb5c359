/**
 * The administrator's user list (spec 01 sections 2 and 3): who may see it, how a role is named,
 * and the sorting and filtering of the table. Plain data in, plain data out: the page turns the
 * role codes into words.
 */
import { managementRoleAllows } from "../../../core/contracts/management-roles.ts";
import type { UserListItem, UserStudyRole } from "../../../core/contracts/users.ts";

/** The role names the interface shows; the legacy 'edit' reads as administrator. */
export type DisplayedRole = "enroller" | "researcher" | "studyManager" | "administrator";
export type UserSortKey = "nickname" | "username" | "role" | "last_login";
export type SortDirection = "ascending" | "descending";
export type UserSort = { key: UserSortKey; direction: SortDirection };

export const DEFAULT_USER_SORT: UserSort = { key: "nickname", direction: "ascending" };

/** Administrators (the management role allowing "users": 'administrator', legacy 'edit') manage users. */
export function mayListUsers(role: string | undefined): boolean {
  return managementRoleAllows(role, "users");
}

export function displayedRole(role: UserListItem["role"]): DisplayedRole {
  return role === "edit" ? "administrator" : role;
}

/** One of a user's roles in studies and the studies they have it in, in the server's order (by study name). */
export type StudyRoleGroup = { role: UserStudyRole["role"]; studies: string[] };

/**
 * A user's roles in studies, one entry per role with the studies they have it in (a coordinator of
 * three studies reads as one line, not three). Roles come in the order of their first study.
 */
export function studyRoleGroups(user: UserListItem): StudyRoleGroup[] {
  const groups = new Map<string, StudyRoleGroup>();
  for (const entry of user.study_roles ?? []) {
    const group = groups.get(entry.role) ?? { role: entry.role, studies: [] };
    group.studies.push(entry.study_name);
    groups.set(entry.role, group);
  }
  return [...groups.values()];
}

/** Clicking a column sorts by it ascending; clicking the sorted column again reverses it. */
export function nextSort(current: UserSort, key: UserSortKey): UserSort {
  if (current.key !== key) return { key, direction: "ascending" };
  return { key, direction: current.direction === "ascending" ? "descending" : "ascending" };
}

/** Whether the filter text (case-insensitive) is in the user's nickname, email or shown role name. */
export function userMatches(
  user: UserListItem,
  filter: string,
  roleName: (role: DisplayedRole) => string,
): boolean {
  const needle = filter.trim().toLocaleLowerCase();
  if (!needle) return true;
  return [user.nickname, user.username, roleName(displayedRole(user.role))].some((text) =>
    text.toLocaleLowerCase().includes(needle),
  );
}

let collator: Intl.Collator | undefined;
/**
 * Made at the first sort, not when the module loads: this module is in the app's first chunk, and
 * a page's first Intl.Collator loads the collation data (about 8 ms of a first visit's main
 * thread), which no screen but the user list needs.
 */
const names = () => (collator ??= new Intl.Collator(undefined, { sensitivity: "base", numeric: true }));

/**
 * Users matching the filter text (case-insensitive, in nickname, email or the shown role name),
 * sorted. Users who never signed in sort after everyone else whichever the direction, and ties
 * keep a stable order by email.
 */
export function visibleUsers(
  users: readonly UserListItem[],
  { filter, sort, roleName }: { filter: string; sort: UserSort; roleName: (role: DisplayedRole) => string },
): UserListItem[] {
  const matching = users.filter((user) => userMatches(user, filter, roleName));
  const sign = sort.direction === "ascending" ? 1 : -1;
  const compare = (a: UserListItem, b: UserListItem): number => {
    switch (sort.key) {
      case "last_login": {
        if (a.last_login === null || b.last_login === null) {
          return a.last_login === b.last_login ? 0 : a.last_login === null ? 1 : -1;
        }
        return sign * (Date.parse(a.last_login) - Date.parse(b.last_login));
      }
      case "role":
        return sign * names().compare(roleName(displayedRole(a.role)), roleName(displayedRole(b.role)));
      default:
        return sign * names().compare(a[sort.key], b[sort.key]);
    }
  };
  return matching.sort((a, b) => compare(a, b) || names().compare(a.username, b.username));
}
