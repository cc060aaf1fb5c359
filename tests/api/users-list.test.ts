import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { errorBody } from "../../core/contracts/errors.ts";
import { usersResponse } from "../../core/contracts/users.ts";
import { studyPermissions, users } from "../../server/db/schema.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";

const USERS = "/control/users";

describeOnEachDatabase("GET /control/users", (api) => {
  it("answers an administrator every user with id, username, nickname, role, last_login and status", async () => {
    const token = await api.signIn("admin@demo.test");
    const response = await api.request("GET", USERS, { token });
    expect(response.statusCode).toBe(200);
    const { users: list } = usersResponse.parse(response.json());
    const all = await api.db.select({ id: users.id }).from(users);
    expect(list.map((user) => user.id)).toEqual(all.map((user) => user.id).sort((a, b) => a - b));
    for (const user of list) {
      expect(Object.keys(user).sort()).toEqual([
        "id",
        "invitation_expires_at",
        "last_login",
        "nickname",
        "role",
        "status",
        "study_roles",
        "username",
      ]);
    }
    // Where each account stands: the seed makes the pending account without a link (the server
    // mails one at start), so its invitation reads as expired until one is sent.
    expect(list.find((user) => user.username === "pending@demo.test")).toMatchObject({
      status: "invitation_expired",
      invitation_expires_at: null,
    });
    expect(list.find((user) => user.username === "staff1@demo.test")).toMatchObject({
      status: "active",
      invitation_expires_at: null,
    });
    expect(list.find((user) => user.username === "coordinator@demo.test")).toMatchObject({
      nickname: "Carmen Ortiz",
      role: "studyManager",
    });
    expect(list.find((user) => user.username === "admin@demo.test")).toMatchObject({ role: "administrator" });
    // Password hashes and token versions never leave the server.
    expect(response.body).not.toMatch(/argon2|password|tokenVersion|token_version/i);
  });

  it("answers each user's role in each study as stored, ordered by study name, and [] without any", async () => {
    const token = await api.signIn("admin@demo.test");
    const { users: list } = usersResponse.parse((await api.request("GET", USERS, { token })).json());
    const permissions = await api.db
      .select({
        userId: studyPermissions.userId,
        studyId: studyPermissions.studyId,
        role: studyPermissions.role,
      })
      .from(studyPermissions);
    const witness = list.find((user) => user.username === "witness@demo.test");
    expect(witness?.study_roles?.length).toBeGreaterThan(0);
    expect(witness?.study_roles?.every((entry) => entry.role === "Impartial Witness")).toBe(true);
    for (const user of list) {
      const expected = permissions
        .filter((permission) => permission.userId === user.id)
        .map((permission) => `${permission.studyId}:${permission.role}`)
        .sort();
      expect(user.study_roles?.map((entry) => `${entry.study_id}:${entry.role}`).sort()).toEqual(expected);
      const names = user.study_roles?.map((entry) => entry.study_name) ?? [];
      expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    const fresh = await api.createUser({ studies: {} });
    const again = usersResponse.parse((await api.request("GET", USERS, { token })).json());
    expect(again.users.find((user) => user.id === fresh.id)?.study_roles).toEqual([]);
  });

  it("answers last_login as an ISO time after a sign-in, and null for a user who never signed in", async () => {
    const signedInUser = await api.createUser();
    await api.signIn(signedInUser.username, signedInUser.password);
    const neverSignedIn = await api.createUser();
    const token = await api.signIn("admin@demo.test");
    const { users: list } = usersResponse.parse((await api.request("GET", USERS, { token })).json());
    const signedIn = list.find((user) => user.id === signedInUser.id);
    expect(signedIn?.last_login).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.now() - Date.parse(signedIn!.last_login!)).toBeLessThan(5 * 60 * 1000);
    expect(list.find((user) => user.id === neverSignedIn.id)?.last_login).toBeNull();
    expect(list.find((user) => user.username === "pending@demo.test")?.last_login).toBeNull();
  });

  it("answers a user with the legacy role 'edit' as an administrator would be, role as stored", async () => {
    const legacy = await api.createUser();
    await api.db.update(users).set({ role: "edit" }).where(eq(users.id, legacy.id));
    const token = await api.signIn(legacy.username, legacy.password);
    const response = await api.request("GET", USERS, { token });
    expect(response.statusCode).toBe(200);
    const { users: list } = usersResponse.parse(response.json());
    expect(list.find((user) => user.id === legacy.id)?.role).toBe("edit");
  });

  it.each(["coordinator@demo.test", "staff1@demo.test", "witness@demo.test"])(
    "answers 403 to %s, who is not an administrator",
    async (username) => {
      const token = await api.signIn(username);
      const response = await api.request("GET", USERS, { token });
      expect(response.statusCode).toBe(403);
      expect(errorBody.parse(response.json())).toEqual({
        message: "Only administrators may list users.",
        code: "users_forbidden",
      });
      expect(response.body).not.toContain("@demo.test");
    },
  );

  it("answers 401 when there is no token", async () => {
    expect((await api.request("GET", USERS)).statusCode).toBe(401);
  });
});
