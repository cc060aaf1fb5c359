import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { loginResponse } from "../../core/contracts/auth.ts";
import { errorBody } from "../../core/contracts/errors.ts";
import { meResponse } from "../../core/contracts/user.ts";
import { loginAttempts, users } from "../../server/db/schema.ts";
import { DEMO_PASSWORD, decodeTokenPayload, describeOnEachDatabase } from "../support/api-harness.ts";

describeOnEachDatabase("POST /control/clinro/login", (api) => {
  const lastLoginOf = async (id: number) => {
    const [row] = await api.db
      .select({ lastLogin: users.lastLogin, utcOffset: users.utcOffsetMinutes })
      .from(users)
      .where(eq(users.id, id));
    return row!;
  };

  it("answers a token, the id, the username and is_temporary_password false for the coordinator", async () => {
    const response = await api.login("coordinator@demo.test", DEMO_PASSWORD, { remoteAddress: "10.1.0.1" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    const body = loginResponse.parse(response.json());
    expect(body.username).toBe("coordinator@demo.test");
    expect(body.is_temporary_password).toBe(false);
    expect(body.token.split(".")).toHaveLength(3);
    expect(decodeTokenPayload(body.token)).toMatchObject({ id: body.id, username: body.username });
  });

  it("answers is_temporary_password true for the account with a temporary password", async () => {
    const response = await api.login("newuser@demo.test", DEMO_PASSWORD, { remoteAddress: "10.1.0.2" });
    expect(response.statusCode).toBe(200);
    const body = loginResponse.parse(response.json());
    expect(body.username).toBe("newuser@demo.test");
    expect(body.is_temporary_password).toBe(true);
  });

  it("treats the username case-insensitively and answers it lower-cased", async () => {
    const lower = loginResponse.parse(
      (await api.login("staff1@demo.test", DEMO_PASSWORD, { remoteAddress: "10.1.0.3" })).json(),
    );
    const mixed = await api.login("Staff1@Demo.TEST", DEMO_PASSWORD, { remoteAddress: "10.1.0.3" });
    expect(mixed.statusCode).toBe(200);
    const body = loginResponse.parse(mixed.json());
    expect(body.id).toBe(lower.id);
    expect(body.username).toBe("staff1@demo.test");
  });

  it("answers 400 with the same body for an unknown username and a wrong password", async () => {
    const wrongPassword = await api.login("coordinator@demo.test", "WrongPass1!", {
      remoteAddress: "10.1.0.4",
    });
    const unknownUser = await api.login("nobody@demo.test", "WrongPass1!", { remoteAddress: "10.1.0.4" });
    expect(wrongPassword.statusCode).toBe(400);
    expect(unknownUser.statusCode).toBe(400);
    expect(unknownUser.body).toBe(wrongPassword.body);
    expect(unknownUser.headers["content-type"]).toBe(wrongPassword.headers["content-type"]);
    const body = errorBody.parse(wrongPassword.json());
    expect(body.message).not.toMatch(/unknown|not found|no such|exist/i);
    expect(wrongPassword.body).not.toContain("coordinator");
  });

  it("refuses the right password of another account", async () => {
    const response = await api.login("staff2@demo.test", "not-the-password", { remoteAddress: "10.1.0.5" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).not.toHaveProperty("token");
  });

  it.each([
    ["username", { password: DEMO_PASSWORD }],
    ["username", { username: "", password: DEMO_PASSWORD }],
    ["username", { username: "   ", password: DEMO_PASSWORD }],
    ["password", { username: "PLACEHOLDER" }],
    ["password", { username: "PLACEHOLDER", password: "" }],
  ])("answers 400 naming the missing %s and changes nothing (%j)", async (field, template) => {
    const user = await api.createUser();
    const body = Object.fromEntries(
      Object.entries(template).map(([key, value]) => [key, value === "PLACEHOLDER" ? user.username : value]),
    );
    const response = await api.request("POST", "/control/clinro/login", { body, remoteAddress: "10.1.0.6" });
    expect(response.statusCode).toBe(400);
    const error = errorBody.parse(response.json());
    expect(error.message).toContain(field);
    expect(error.issues?.map((issue) => issue.path)).toContain(field);
    expect(response.json()).not.toHaveProperty("token");
    expect((await lastLoginOf(user.id)).lastLogin).toBeNull();
    const attempts = await api.db.select().from(loginAttempts);
    expect(attempts.filter((row) => row.key.startsWith(user.username))).toEqual([]);
  });

  it("answers 400 naming both fields for an empty body", async () => {
    const response = await api.request("POST", "/control/clinro/login", {
      body: {},
      remoteAddress: "10.1.0.7",
    });
    expect(response.statusCode).toBe(400);
    const error = errorBody.parse(response.json());
    expect(error.message).toContain("username");
    expect(error.message).toContain("password");
  });

  it("answers 400 for a body that is not JSON", async () => {
    const response = await api.request("POST", "/control/clinro/login", {
      body: "{not json",
      headers: { "content-type": "application/json" },
      remoteAddress: "10.1.0.7",
    });
    expect(response.statusCode).toBe(400);
    errorBody.parse(response.json());
  });

  it("accepts the hpi-utc-offset header and keeps the offset", async () => {
    const user = await api.createUser();
    const response = await api.login(user.username, user.password, {
      headers: { "hpi-utc-offset": "-300" },
      remoteAddress: "10.1.0.8",
    });
    expect(response.statusCode).toBe(200);
    expect((await lastLoginOf(user.id)).utcOffset).toBe(-300);
  });

  it.each(["abc", "9999", "1.5", "-841"])(
    "answers 400 for a malformed hpi-utc-offset header %j and does not sign in",
    async (offset) => {
      const user = await api.createUser();
      const response = await api.login(user.username, user.password, {
        headers: { "hpi-utc-offset": offset },
        remoteAddress: "10.1.0.9",
      });
      expect(response.statusCode).toBe(400);
      const error = errorBody.parse(response.json());
      expect(error.message).toContain("hpi-utc-offset");
      expect(response.json()).not.toHaveProperty("token");
      const row = await lastLoginOf(user.id);
      expect(row.lastLogin).toBeNull();
      expect(row.utcOffset).toBeNull();
    },
  );

  it("sets last_login on sign-in, as GET /control/clinro/users/me shows", async () => {
    const user = await api.createUser();
    expect((await lastLoginOf(user.id)).lastLogin).toBeNull();
    const before = Date.now();
    const token = await api.signIn(user.username, user.password);
    const me = meResponse.parse((await api.request("GET", "/control/clinro/users/me", { token })).json());
    expect(me.last_login).not.toBeNull();
    const lastLogin = Date.parse(me.last_login!);
    expect(lastLogin).toBeGreaterThanOrEqual(before - 5_000);
    expect(lastLogin).toBeLessThanOrEqual(Date.now() + 5_000);
  });

  it("does not set last_login on a failed sign-in", async () => {
    const user = await api.createUser();
    const response = await api.login(user.username, "WrongPass1!", { remoteAddress: "10.1.0.10" });
    expect(response.statusCode).toBe(400);
    expect((await lastLoginOf(user.id)).lastLogin).toBeNull();
  });
});
