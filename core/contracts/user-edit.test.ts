import { describe, expect, it } from "vitest";
import { editRefusal, editUserRequest, mayEditUser, type UserEditor } from "./user-edit.ts";

const editor = (overrides: Partial<UserEditor> = {}): UserEditor => ({
  id: 10,
  scope: ["wu"],
  created_by: 3,
  ...overrides,
});

describe("who may edit a user (spec 01 section 4)", () => {
  it.each([
    ["anyone edits their own profile, without the scope", editor({ scope: [] }), 10, null],
    ["anyone edits their own profile, even with a creator", editor({ created_by: 10 }), 10, null],
    ["another user needs the scope 'wu'", editor({ scope: [] }), 11, "no_scope"],
    ["another scope is not 'wu'", editor({ scope: ["ca", "cp", "w"] }), 11, "no_scope"],
    ["with 'wu', another user who is not the creator", editor(), 11, null],
    ["with 'wu', not the editor's own creator", editor(), 3, "creator"],
    ["without 'wu', the creator is refused for the scope first", editor({ scope: [] }), 3, "no_scope"],
    ["an account nobody created may edit anyone", editor({ created_by: null }), 3, null],
  ] as const)("%s", (_case, who, targetId, refusal) => {
    expect(editRefusal(who, targetId)).toBe(refusal);
    expect(mayEditUser(who, targetId)).toBe(refusal === null);
  });
});

describe("the edit request", () => {
  it("trims the nickname", () => {
    expect(editUserRequest.parse({ nickname: "  Ana  " })).toEqual({ nickname: "Ana" });
  });
  it.each([
    ["nothing to change", {}],
    ["an empty nickname", { nickname: " " }],
    ["the legacy role 'edit'", { role: "edit" }],
    ["an unknown field", { nickname: "Ana", scope: ["wu"] }],
  ])("refuses %s", (_case, body) => {
    expect(editUserRequest.safeParse(body).success).toBe(false);
  });
});
