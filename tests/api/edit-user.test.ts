import { and, desc, eq, gt } from "drizzle-orm";
import { expect, it } from "vitest";
import { errorBody } from "../../core/contracts/errors.ts";
import { userListItem } from "../../core/contracts/users.ts";
import { auditLog, users } from "../../server/db/schema.ts";
import { describeOnEachDatabase, type ApiHarness } from "../support/api-harness.ts";

const editPath = (userId: number | string) => `/control/users/${userId}`;

async function userRow(api: ApiHarness, id: number) {
  const [row] = await api.db.select().from(users).where(eq(users.id, id));
  if (!row) throw new Error(`no user ${id}`);
  return row;
}

async function idOf(api: ApiHarness, username: string) {
  const [row] = await api.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (!row) throw new Error(`no user ${username}`);
  return row.id;
}

async function lastAuditId(api: ApiHarness) {
  const [row] = await api.db.select({ id: auditLog.id }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  return row?.id ?? 0;
}

/** A user with the user scope 'wu', created by `createdBy`. */
async function editorCreatedBy(api: ApiHarness, createdBy: number | null) {
  const editor = await api.createUser();
  await api.db
    .update(users)
    .set({ scope: ["wu"], createdBy })
    .where(eq(users.id, editor.id));
  return { ...editor, token: await api.signIn(editor.username, editor.password) };
}

describeOnEachDatabase("PATCH /control/users/{userId}", (api) => {
  it("lets a user with the scope 'wu' change another user's nickname and role, audited as the editor", async () => {
    const adminId = await idOf(api, "admin@demo.test");
    const target = await api.createUser();
    const token = await api.signIn("admin@demo.test");
    const before = await lastAuditId(api);
    const response = await api.request("PATCH", editPath(target.id), {
      token,
      body: { nickname: "  Dr. Renamed  ", role: "studyManager" },
    });
    expect(response.statusCode).toBe(200);
    expect(userListItem.parse(response.json())).toEqual({
      id: target.id,
      username: target.username,
      nickname: "Dr. Renamed",
      role: "studyManager",
      last_login: null,
    });
    expect(await userRow(api, target.id)).toMatchObject({ nickname: "Dr. Renamed", role: "studyManager" });

    const audited = await api.db
      .select()
      .from(auditLog)
      .where(and(gt(auditLog.id, before), eq(auditLog.tableName, "users"), eq(auditLog.action, "update")));
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({
      actorUserId: adminId,
      rowKey: { id: target.id },
      newValues: expect.objectContaining({ nickname: "Dr. Renamed", role: "studyManager" }) as unknown,
    });
  });

  it("refuses (403) to change the editor's own creator, and changes nothing", async () => {
    const creator = await api.createUser();
    const editor = await editorCreatedBy(api, creator.id);
    const response = await api.request("PATCH", editPath(creator.id), {
      token: editor.token,
      body: { nickname: "Taken over", role: "administrator" },
    });
    expect(response.statusCode).toBe(403);
    expect(errorBody.parse(response.json())).toEqual({
      message: "You may not edit the user who created your account.",
      code: "users_edit_creator",
    });
    expect(await userRow(api, creator.id)).toMatchObject({
      nickname: expect.stringMatching(/^Tester /) as unknown,
      role: "researcher",
    });

    // The same editor may edit anyone else.
    const other = await api.createUser();
    const allowed = await api.request("PATCH", editPath(other.id), {
      token: editor.token,
      body: { role: "enroller" },
    });
    expect(allowed.statusCode).toBe(200);
    expect(await userRow(api, other.id)).toMatchObject({ role: "enroller" });
  });

  it("refuses (403) a user without the scope 'wu', whether or not the target exists, and changes nothing", async () => {
    const target = await api.createUser();
    // An administrator by role, but without the scope.
    const editor = await api.createUser();
    await api.db.update(users).set({ role: "administrator" }).where(eq(users.id, editor.id));
    const token = await api.signIn(editor.username, editor.password);
    for (const id of [target.id, 999_999]) {
      const response = await api.request("PATCH", editPath(id), { token, body: { nickname: "Nope" } });
      expect(response.statusCode).toBe(403);
      expect(errorBody.parse(response.json())).toEqual({
        message: "You may not edit other users.",
        code: "users_edit_forbidden",
      });
    }
    expect((await userRow(api, target.id)).nickname).not.toBe("Nope");

    const coordinatorToken = await api.signIn("coordinator@demo.test");
    const coordinatorTry = await api.request("PATCH", editPath(target.id), {
      token: coordinatorToken,
      body: { role: "administrator" },
    });
    expect(coordinatorTry.statusCode).toBe(403);
    expect((await userRow(api, target.id)).role).toBe("researcher");
  });

  it("lets anyone change their own nickname, but not their own role", async () => {
    const self = await api.createUser();
    const token = await api.signIn(self.username, self.password);
    const renamed = await api.request("PATCH", editPath(self.id), { token, body: { nickname: "Me Myself" } });
    expect(renamed.statusCode).toBe(200);
    expect(userListItem.parse(renamed.json())).toMatchObject({ id: self.id, nickname: "Me Myself" });

    const promoted = await api.request("PATCH", editPath(self.id), {
      token,
      body: { role: "administrator" },
    });
    expect(promoted.statusCode).toBe(403);
    expect(errorBody.parse(promoted.json()).code).toBe("users_edit_own_role");
    expect(await userRow(api, self.id)).toMatchObject({ nickname: "Me Myself", role: "researcher" });

    // A 'wu' editor may not change their own role either.
    const adminToken = await api.signIn("admin@demo.test");
    const adminId = await idOf(api, "admin@demo.test");
    const demoted = await api.request("PATCH", editPath(adminId), {
      token: adminToken,
      body: { role: "enroller" },
    });
    expect(demoted.statusCode).toBe(403);
    expect((await userRow(api, adminId)).role).toBe("administrator");
  });

  it("answers 404 to an editor with the scope for a user that does not exist", async () => {
    const token = await api.signIn("admin@demo.test");
    const response = await api.request("PATCH", editPath(987_654), { token, body: { nickname: "Ghost" } });
    expect(response.statusCode).toBe(404);
    expect(errorBody.parse(response.json()).code).toBe("user_not_found");
  });

  it.each([
    ["a user id that is not a number", "abc", { nickname: "X" }, "userId"],
    ["a user id of 0", "0", { nickname: "X" }, "userId"],
    ["a user id out of range", "99999999999999", { nickname: "X" }, "userId"],
    ["an empty body", "TARGET", {}, "give nickname or role"],
    ["an empty nickname", "TARGET", { nickname: "   " }, "nickname"],
    ["an unknown role", "TARGET", { role: "superuser" }, "role"],
    ["the legacy role 'edit', which is never written", "TARGET", { role: "edit" }, "role"],
    ["a field that may not be edited", "TARGET", { nickname: "X", scope: ["wu"] }, "scope"],
    ["a nickname that is not text", "TARGET", { nickname: 42 }, "nickname"],
  ])("answers 400 to %s and changes nothing", async (_case, id, body, named) => {
    const target = await api.createUser();
    const before = await userRow(api, target.id);
    const token = await api.signIn("admin@demo.test");
    const response = await api.request("PATCH", editPath(id === "TARGET" ? target.id : id), { token, body });
    expect(response.statusCode).toBe(400);
    const error = errorBody.parse(response.json());
    expect(error.code).toBe("invalid_request");
    expect(error.message).toContain(named);
    expect(await userRow(api, target.id)).toEqual(before);
  });

  it("answers 401 without a token", async () => {
    const target = await api.createUser();
    const response = await api.request("PATCH", editPath(target.id), { body: { nickname: "X" } });
    expect(response.statusCode).toBe(401);
  });
});
