import { describe, expect, it } from "vitest";
import type { UserListItem } from "../../../core/contracts/users.ts";
import {
  DEFAULT_USER_SORT,
  displayedRole,
  mayListUsers,
  nextSort,
  studyRoleGroups,
  visibleUsers,
  type DisplayedRole,
  type UserSort,
} from "./user-list.ts";

const roleNames: Record<DisplayedRole, string> = {
  enroller: "Enroller",
  researcher: "Researcher",
  studyManager: "Study manager",
  administrator: "Administrator",
};
const roleName = (role: DisplayedRole) => roleNames[role];

const users: UserListItem[] = [
  {
    id: 1,
    nickname: "carmen",
    username: "c@x.test",
    role: "studyManager",
    last_login: "2026-03-02T10:00:00.000Z",
  },
  { id: 2, nickname: "Bea", username: "b@x.test", role: "edit", last_login: null },
  {
    id: 3,
    nickname: "Aaron",
    username: "a@x.test",
    role: "researcher",
    last_login: "2026-03-05T08:00:00.000Z",
  },
  { id: 4, nickname: "dora", username: "d@x.test", role: "enroller", last_login: "2026-01-01T00:00:00.000Z" },
];

const names = (list: UserListItem[]) => list.map((user) => user.nickname);
const sorted = (sort: UserSort, filter = "") => names(visibleUsers(users, { filter, sort, roleName }));

describe("who may list users", () => {
  it.each([
    ["administrator", true],
    ["edit", true],
    ["studyManager", false],
    ["researcher", false],
    ["enroller", false],
    [undefined, false],
  ])("role %s: %s", (role, allowed) => {
    expect(mayListUsers(role)).toBe(allowed);
  });
});

describe("role names", () => {
  it("shows the legacy 'edit' as administrator", () => {
    expect(displayedRole("edit")).toBe("administrator");
  });
  it.each(["enroller", "researcher", "studyManager", "administrator"] as const)("keeps %s", (role) => {
    expect(displayedRole(role)).toBe(role);
  });
});

describe("sorting", () => {
  it("sorts by nickname ascending by default, ignoring case", () => {
    expect(DEFAULT_USER_SORT).toEqual({ key: "nickname", direction: "ascending" });
    expect(sorted(DEFAULT_USER_SORT)).toEqual(["Aaron", "Bea", "carmen", "dora"]);
  });
  it("sorts by nickname descending", () => {
    expect(sorted({ key: "nickname", direction: "descending" })).toEqual(["dora", "carmen", "Bea", "Aaron"]);
  });
  it("sorts by email", () => {
    expect(sorted({ key: "username", direction: "descending" })).toEqual(["dora", "carmen", "Bea", "Aaron"]);
  });
  it("sorts by the shown role name, so 'edit' sorts as Administrator", () => {
    expect(sorted({ key: "role", direction: "ascending" })).toEqual(["Bea", "dora", "Aaron", "carmen"]);
  });
  it("sorts by last login, newest last when ascending, never-logged-in users at the end", () => {
    expect(sorted({ key: "last_login", direction: "ascending" })).toEqual(["dora", "carmen", "Aaron", "Bea"]);
  });
  it("keeps never-logged-in users at the end when descending too", () => {
    expect(sorted({ key: "last_login", direction: "descending" })).toEqual([
      "Aaron",
      "carmen",
      "dora",
      "Bea",
    ]);
  });
  it("does not reorder the list it was given", () => {
    visibleUsers(users, { filter: "", sort: DEFAULT_USER_SORT, roleName });
    expect(names(users)).toEqual(["carmen", "Bea", "Aaron", "dora"]);
  });
});

describe("nextSort", () => {
  it("a new column sorts ascending", () => {
    expect(nextSort({ key: "nickname", direction: "descending" }, "role")).toEqual({
      key: "role",
      direction: "ascending",
    });
  });
  it("the same column reverses", () => {
    expect(nextSort({ key: "role", direction: "ascending" }, "role")).toEqual({
      key: "role",
      direction: "descending",
    });
    expect(nextSort({ key: "role", direction: "descending" }, "role")).toEqual({
      key: "role",
      direction: "ascending",
    });
  });
});

describe("filtering", () => {
  it.each([
    ["nickname, any case", "CARM", ["carmen"]],
    ["email", "b@x", ["Bea"]],
    ["shown role name", "administrator", ["Bea"]],
    ["role name in part", "study", ["carmen"]],
    ["surrounding spaces ignored", "  dora ", ["dora"]],
    ["nothing matching", "zzz", []],
    ["empty text", "", ["Aaron", "Bea", "carmen", "dora"]],
  ])("by %s", (_case, filter, expected) => {
    expect(sorted(DEFAULT_USER_SORT, filter)).toEqual(expected);
  });
});

describe("studyRoleGroups", () => {
  const base: UserListItem = {
    id: 9,
    nickname: "Wanda",
    username: "w@x.test",
    role: "enroller",
    last_login: null,
  };

  it("gives each study role once with its studies, in the order of the first study (the server's, by name)", () => {
    const coordinator: UserListItem = {
      ...base,
      role: "studyManager",
      study_roles: [
        { study_id: 103, study_name: "GAD-118", role: "16" },
        { study_id: 101, study_name: "MDD-301", role: "11" },
        { study_id: 102, study_name: "SCZ-214", role: "16" },
      ],
    };
    expect(studyRoleGroups(coordinator)).toEqual([
      { role: "16", studies: ["GAD-118", "SCZ-214"] },
      { role: "11", studies: ["MDD-301"] },
    ]);
  });

  it("keeps a witness's study role, whatever the account role", () => {
    const witness: UserListItem = {
      ...base,
      study_roles: [{ study_id: 101, study_name: "MDD-301", role: "Impartial Witness" }],
    };
    expect(studyRoleGroups(witness)).toEqual([{ role: "Impartial Witness", studies: ["MDD-301"] }]);
  });

  it("is empty for a user without a study, or an answer without study roles", () => {
    expect(studyRoleGroups({ ...base, study_roles: [] })).toEqual([]);
    expect(studyRoleGroups(base)).toEqual([]);
  });
});
