import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { expect, it } from "vitest";
import { tokenPayload } from "../../core/contracts/auth.ts";
import { errorBody } from "../../core/contracts/errors.ts";
import { revokedTokens, users } from "../../server/db/schema.ts";
import {
  decodeTokenPayload,
  describeOnEachDatabase,
  signTestToken,
  TEST_SECRET_BYTES,
  TEST_TOKEN_TTL_S,
  unsignedToken,
  type ApiHarness,
} from "../support/api-harness.ts";

type Call = { method: "GET" | "PATCH" | "POST"; url: string; body?: unknown };

const AUTHENTICATED_CALLS: Call[] = [
  { method: "GET", url: "/control/clinro/users/me" },
  { method: "PATCH", url: "/control/clinro/users/me", body: { nickname: "Changed" } },
  { method: "GET", url: "/control/studies/101" },
  {
    method: "POST",
    url: "/control/change_password",
    body: { old_password: "DemoPass1!", new_password: "Another1!pass" },
  },
  { method: "POST", url: "/control/clinro/logout" },
];

type BadToken = {
  name: string;
  authorization: (api: ApiHarness, user: { id: number; username: string }) => Promise<string | undefined>;
};

const BAD_TOKENS: BadToken[] = [
  { name: "no Authorization header", authorization: async () => undefined },
  { name: "an empty bearer token", authorization: async () => "Bearer " },
  { name: "a malformed token", authorization: async () => "Bearer not.a.jwt" },
  { name: "a token that is not a JWT at all", authorization: async () => "Bearer abcdef" },
  {
    name: "a valid token under another scheme than Bearer",
    authorization: async (_api, user) => `Basic ${await signTestToken(user)}`,
  },
  {
    name: "a token signed with another secret",
    authorization: async (_api, user) =>
      `Bearer ${await signTestToken(user, {
        secret: new TextEncoder().encode("some-other-secret-that-is-long-enough-0123456789"),
      })}`,
  },
  {
    name: "an unsigned alg none token",
    authorization: async (_api, user) => `Bearer ${unsignedToken(user)}`,
  },
  {
    name: "an expired token",
    authorization: async (_api, user) =>
      `Bearer ${await signTestToken(user, { expiresAt: Math.floor(Date.now() / 1000) - 60 })}`,
  },
  {
    name: "a token whose signature was tampered with",
    authorization: async (api, user) => {
      const token = await api.signIn(user.username);
      const [header, payload, signature] = token.split(".");
      const flipped = `${signature![0] === "A" ? "B" : "A"}${signature!.slice(1)}`;
      return `Bearer ${header}.${payload}.${flipped}`;
    },
  },
  {
    name: "a token whose payload was changed to another user",
    authorization: async (api, user) => {
      const token = await api.signIn(user.username);
      const [header, , signature] = token.split(".");
      const payload = Buffer.from(JSON.stringify({ ...decodeTokenPayload(token), id: user.id + 1 })).toString(
        "base64url",
      );
      return `Bearer ${header}.${payload}.${signature}`;
    },
  },
  {
    name: "a well-signed token for a user that does not exist",
    authorization: async () => `Bearer ${await signTestToken({ id: 987_654, username: "ghost@demo.test" })}`,
  },
];

describeOnEachDatabase("session tokens", (api) => {
  it("carries id, username and a future exp in the payload, signed with HS256", async () => {
    const response = await api.login("staff1@demo.test", undefined, { remoteAddress: "10.2.0.1" });
    const { token, id, username } = response.json() as { token: string; id: number; username: string };
    const [header] = token.split(".");
    expect(JSON.parse(Buffer.from(header!, "base64url").toString())).toMatchObject({ alg: "HS256" });
    const payload = tokenPayload.parse(decodeTokenPayload(token));
    expect(payload).toMatchObject({ id, username: "staff1@demo.test" });
    expect(username).toBe("staff1@demo.test");
    const now = Date.now() / 1000;
    expect(payload.exp).toBeGreaterThan(now);
    expect(payload.exp).toBeLessThanOrEqual(now + TEST_TOKEN_TTL_S + 5);
  });

  it("accepts a token it did not issue itself when it is well signed with the right claims", async () => {
    // The control for the cases below: only the one property each of them changes makes it bad.
    const user = await api.createUser();
    const token = await signTestToken(user);
    const response = await api.request("GET", "/control/clinro/users/me", { token });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: user.id, username: user.username });
  });

  // One account for all the refused calls: none of them may change it.
  let target: Promise<{ id: number; username: string; password: string }> | undefined;
  const targetUser = () => (target ??= api.createUser());

  for (const call of AUTHENTICATED_CALLS) {
    it.each(BAD_TOKENS)(`answers 401 to ${call.method} ${call.url} with $name`, async (bad) => {
      const user = await targetUser();
      const authorization = await bad.authorization(api, user);
      const response = await api.request(call.method, call.url, {
        ...(authorization === undefined ? {} : { authorization }),
        ...(call.body === undefined ? {} : { body: call.body }),
      });
      expect(response.statusCode).toBe(401);
      const body = errorBody.parse(response.json());
      expect(body.message).toBeTruthy();
      // Nothing happened on the user's behalf.
      const [row] = await api.db.select().from(users).where(eq(users.id, user.id));
      expect(row).toMatchObject({ nickname: expect.not.stringMatching(/^Changed$/), tokenVersion: 0 });
      expect(await api.db.select().from(revokedTokens).where(eq(revokedTokens.userId, user.id))).toEqual([]);
    });
  }

  it("answers 401 to a well-signed token without the ver and jti claims", async () => {
    const user = await api.createUser();
    const token = await new SignJWT({ id: user.id, username: user.username })
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime("1h")
      .sign(TEST_SECRET_BYTES);
    expect((await api.request("GET", "/control/clinro/users/me", { token })).statusCode).toBe(401);
  });

  it("signs out with 204: that token is then 401, another token of the same user still works", async () => {
    const user = await api.createUser();
    const first = await api.signIn(user.username, user.password);
    const second = await api.signIn(user.username, user.password);
    expect((await api.request("GET", "/control/clinro/users/me", { token: first })).statusCode).toBe(200);

    const logout = await api.request("POST", "/control/clinro/logout", { token: first });
    expect(logout.statusCode).toBe(204);
    expect(logout.body).toBe("");

    for (const call of AUTHENTICATED_CALLS) {
      const response = await api.request(call.method, call.url, {
        token: first,
        ...(call.body === undefined ? {} : { body: call.body }),
      });
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(401);
    }
    const me = await api.request("GET", "/control/clinro/users/me", { token: second });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ username: user.username });
  });

  it("answers 401 to a second sign-out with the same token", async () => {
    const user = await api.createUser();
    const token = await api.signIn(user.username, user.password);
    expect((await api.request("POST", "/control/clinro/logout", { token })).statusCode).toBe(204);
    expect((await api.request("POST", "/control/clinro/logout", { token })).statusCode).toBe(401);
  });

  it("lets the user sign in again after signing out", async () => {
    const user = await api.createUser();
    const token = await api.signIn(user.username, user.password);
    await api.request("POST", "/control/clinro/logout", { token });
    const again = await api.signIn(user.username, user.password);
    expect((await api.request("GET", "/control/clinro/users/me", { token: again })).statusCode).toBe(200);
  });
});
