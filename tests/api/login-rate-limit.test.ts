import { describe, expect, it } from "vitest";
import { and, eq, like, sql } from "drizzle-orm";
import { errorBody } from "../../core/contracts/errors.ts";
import { readEnv } from "../../server/env.ts";
import { auditLog, loginAttempts } from "../../server/db/schema.ts";
import { DEMO_PASSWORD, describeOnEachDatabase, type ApiHarness } from "../support/api-harness.ts";

const MAX_FAILURES = 3;

describeOnEachDatabase(
  "sign-in rate limit per username and address",
  (api) => {
    let addressCounter = 0;
    /** Each test signs in from addresses of its own, so counts never leak between tests. */
    const freshAddress = () => `10.9.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

    const fail = (harness: ApiHarness, username: string, remoteAddress: string) =>
      harness.login(username, "WrongPass1!", { remoteAddress });

    it(`answers 429 after ${MAX_FAILURES} failures, even with the right password`, async () => {
      const address = freshAddress();
      for (let attempt = 0; attempt < MAX_FAILURES; attempt += 1) {
        expect((await fail(api, "coordinator@demo.test", address)).statusCode).toBe(400);
      }
      const blocked = await api.login("coordinator@demo.test", DEMO_PASSWORD, { remoteAddress: address });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).not.toHaveProperty("token");
      const body = errorBody.parse(blocked.json());
      expect(body.message).toMatch(/too many/i);
      expect((await fail(api, "coordinator@demo.test", address)).statusCode).toBe(429);
    });

    it("limits unknown usernames exactly like known ones", async () => {
      const knownAddress = freshAddress();
      const unknownAddress = freshAddress();
      const known: number[] = [];
      const unknown: number[] = [];
      const knownBodies: string[] = [];
      const unknownBodies: string[] = [];
      for (let attempt = 0; attempt <= MAX_FAILURES; attempt += 1) {
        const knownAnswer = await fail(api, "staff2@demo.test", knownAddress);
        const unknownAnswer = await fail(api, "ghost@demo.test", unknownAddress);
        known.push(knownAnswer.statusCode);
        unknown.push(unknownAnswer.statusCode);
        knownBodies.push(knownAnswer.body);
        unknownBodies.push(unknownAnswer.body);
      }
      expect(known).toEqual([...Array<number>(MAX_FAILURES).fill(400), 429]);
      expect(unknown).toEqual(known);
      expect(unknownBodies).toEqual(knownBodies);
    });

    it("does not block another username from the same address", async () => {
      const address = freshAddress();
      for (let attempt = 0; attempt < MAX_FAILURES; attempt += 1) {
        await fail(api, "staff1@demo.test", address);
      }
      expect(
        (await api.login("staff1@demo.test", DEMO_PASSWORD, { remoteAddress: address })).statusCode,
      ).toBe(429);
      const other = await api.login("staff3@demo.test", DEMO_PASSWORD, { remoteAddress: address });
      expect(other.statusCode).toBe(200);
    });

    it("does not block the same username from another address", async () => {
      const address = freshAddress();
      for (let attempt = 0; attempt < MAX_FAILURES; attempt += 1) {
        await fail(api, "witness@demo.test", address);
      }
      expect(
        (await api.login("witness@demo.test", DEMO_PASSWORD, { remoteAddress: address })).statusCode,
      ).toBe(429);
      const elsewhere = await api.login("witness@demo.test", DEMO_PASSWORD, {
        remoteAddress: freshAddress(),
      });
      expect(elsewhere.statusCode).toBe(200);
    });

    it("counts every spelling of one username as the same account", async () => {
      const address = freshAddress();
      for (const spelling of ["Admin@demo.test", "ADMIN@DEMO.TEST", "admin@Demo.Test"]) {
        expect((await fail(api, spelling, address)).statusCode).toBe(400);
      }
      expect((await api.login("admin@demo.test", DEMO_PASSWORD, { remoteAddress: address })).statusCode).toBe(
        429,
      );
    });

    it("resets the count on a successful sign-in before the limit", async () => {
      const address = freshAddress();
      const user = await api.createUser();
      for (let attempt = 0; attempt < MAX_FAILURES - 1; attempt += 1) {
        expect((await fail(api, user.username, address)).statusCode).toBe(400);
      }
      expect((await api.login(user.username, user.password, { remoteAddress: address })).statusCode).toBe(
        200,
      );
      // Without the reset, these failures would reach the limit.
      for (let attempt = 0; attempt < MAX_FAILURES - 1; attempt += 1) {
        expect((await fail(api, user.username, address)).statusCode).toBe(400);
      }
      expect((await api.login(user.username, user.password, { remoteAddress: address })).statusCode).toBe(
        200,
      );
      // The count starts again from zero and still blocks at the limit.
      for (let attempt = 0; attempt < MAX_FAILURES; attempt += 1) {
        expect((await fail(api, user.username, address)).statusCode).toBe(400);
      }
      expect((await api.login(user.username, user.password, { remoteAddress: address })).statusCode).toBe(
        429,
      );
    });

    it("lifts the block once the window has passed", async () => {
      const address = freshAddress();
      const user = await api.createUser();
      for (let attempt = 0; attempt < MAX_FAILURES; attempt += 1) {
        await fail(api, user.username, address);
      }
      expect((await api.login(user.username, user.password, { remoteAddress: address })).statusCode).toBe(
        429,
      );
      // Move this window's start back past its end.
      await api.db
        .update(loginAttempts)
        .set({ windowStartedAt: sql`now() - interval '16 minutes'` })
        .where(like(loginAttempts.key, `%${user.username}%`));
      expect((await api.login(user.username, user.password, { remoteAddress: address })).statusCode).toBe(
        200,
      );
    });

    it(`checks ${MAX_FAILURES} of 100 wrong passwords sent at once and refuses the rest with 429`, async () => {
      const address = freshAddress();
      const user = await api.createUser();
      const answers = await Promise.all(Array.from({ length: 100 }, () => fail(api, user.username, address)));
      const statuses = answers.map((answer) => answer.statusCode);
      expect(statuses.filter((status) => status === 400)).toHaveLength(MAX_FAILURES);
      expect(statuses.filter((status) => status === 429)).toHaveLength(100 - MAX_FAILURES);
      // The trail says the same: MAX_FAILURES passwords checked, the others refused unchecked.
      const reasons = await api.db
        .select({ reason: sql<string>`${auditLog.details}->>'reason'` })
        .from(auditLog)
        .where(
          and(
            eq(auditLog.action, "sign_in_failed"),
            sql`${auditLog.details}->>'username' = ${user.username}`,
            sql`${auditLog.details}->>'address' = ${address}`,
          ),
        );
      expect(reasons.filter((row) => row.reason === "wrong_password")).toHaveLength(MAX_FAILURES);
      expect(reasons.filter((row) => row.reason === "too_many_attempts")).toHaveLength(100 - MAX_FAILURES);
      // Its owner, elsewhere, is not locked out.
      const owner = await api.login(user.username, user.password, { remoteAddress: freshAddress() });
      expect(owner.statusCode).toBe(200);
    });

    it("ignores X-Forwarded-For when no proxy is trusted: a guesser cannot change address by header", async () => {
      const address = freshAddress();
      const statuses: number[] = [];
      for (let attempt = 0; attempt <= MAX_FAILURES; attempt += 1) {
        const answer = await api.login("staff1@demo.test", "WrongPass1!", {
          remoteAddress: address,
          headers: { "x-forwarded-for": `198.51.100.${attempt + 1}` },
        });
        statuses.push(answer.statusCode);
      }
      expect(statuses).toEqual([...Array<number>(MAX_FAILURES).fill(400), 429]);
    });
  },
  { loginRateLimit: { maxFailures: MAX_FAILURES, windowSeconds: 900 } },
);

const PER_ADDRESS = 5;

describeOnEachDatabase(
  "sign-in rate limit per address, all accounts together",
  (api) => {
    it(`refuses an address after ${PER_ADDRESS} failures on different accounts, and only that address`, async () => {
      const address = "10.8.0.1";
      const users = await Promise.all(Array.from({ length: PER_ADDRESS + 1 }, () => api.createUser()));
      for (const user of users.slice(0, PER_ADDRESS)) {
        expect((await api.login(user.username, "WrongPass1!", { remoteAddress: address })).statusCode).toBe(
          400,
        );
      }
      const last = users[PER_ADDRESS]!;
      expect((await api.login(last.username, last.password, { remoteAddress: address })).statusCode).toBe(
        429,
      );
      expect((await api.login(last.username, last.password, { remoteAddress: "10.8.0.2" })).statusCode).toBe(
        200,
      );
    });

    it("gives a successful sign-in's attempt back to the address's count", async () => {
      const address = "10.8.0.3";
      const user = await api.createUser();
      // Many more right sign-ins than the address's limit: none of them counts as a failure.
      for (let attempt = 0; attempt < PER_ADDRESS * 2; attempt += 1) {
        expect((await api.login(user.username, user.password, { remoteAddress: address })).statusCode).toBe(
          200,
        );
      }
    });
  },
  { loginRateLimit: { maxFailures: MAX_FAILURES, maxFailuresPerAddress: PER_ADDRESS, windowSeconds: 900 } },
);

const PROXY = "10.7.0.1";

describeOnEachDatabase(
  "sign-in rate limit behind a trusted proxy (TRUSTED_PROXIES)",
  (api) => {
    const viaProxy = (username: string, password: string, client: string) =>
      api.login(username, password, { remoteAddress: PROXY, headers: { "x-forwarded-for": client } });

    it("counts each client's forwarded address: a guesser blocks the account from their own address only", async () => {
      const user = await api.createUser();
      for (let attempt = 0; attempt < MAX_FAILURES; attempt += 1) {
        expect((await viaProxy(user.username, "WrongPass1!", "203.0.113.5")).statusCode).toBe(400);
      }
      expect((await viaProxy(user.username, user.password, "203.0.113.5")).statusCode).toBe(429);
      // The owner, behind the same proxy from their own address, signs in.
      expect((await viaProxy(user.username, user.password, "198.51.100.7")).statusCode).toBe(200);
      const refusals = await api.db
        .select({ address: sql<string>`${auditLog.details}->>'address'` })
        .from(auditLog)
        .where(
          and(
            eq(auditLog.action, "sign_in_failed"),
            sql`${auditLog.details}->>'username' = ${user.username}`,
          ),
        );
      expect(new Set(refusals.map((row) => row.address))).toEqual(new Set(["203.0.113.5"]));
    });

    it("takes the address the trusted proxy saw, not one the client wrote before it", async () => {
      const user = await api.createUser();
      // The client sends its own X-Forwarded-For; the proxy appends the address it saw.
      for (let attempt = 0; attempt < MAX_FAILURES; attempt += 1) {
        const spoofed = `192.0.2.${attempt + 1}, 203.0.113.9`;
        expect((await viaProxy(user.username, "WrongPass1!", spoofed)).statusCode).toBe(400);
      }
      expect((await viaProxy(user.username, user.password, "192.0.2.200, 203.0.113.9")).statusCode).toBe(429);
    });

    it("ignores X-Forwarded-For from an address that is not a trusted proxy", async () => {
      const user = await api.createUser();
      for (let attempt = 0; attempt < MAX_FAILURES; attempt += 1) {
        const answer = await api.login(user.username, "WrongPass1!", {
          remoteAddress: "10.7.0.99",
          headers: { "x-forwarded-for": `198.51.100.${attempt + 10}` },
        });
        expect(answer.statusCode).toBe(400);
      }
      const blocked = await api.login(user.username, user.password, {
        remoteAddress: "10.7.0.99",
        headers: { "x-forwarded-for": "198.51.100.99" },
      });
      expect(blocked.statusCode).toBe(429);
    });
  },
  {
    loginRateLimit: { maxFailures: MAX_FAILURES, windowSeconds: 900 },
    appOptions: { trustProxy: [PROXY] },
  },
);

describe("TRUSTED_PROXIES", () => {
  it("takes addresses and CIDR ranges separated by commas", () => {
    expect(readEnv({ TRUSTED_PROXIES: "10.0.0.5, 192.168.1.0/24,::1,loopback" }).TRUSTED_PROXIES).toEqual([
      "10.0.0.5",
      "192.168.1.0/24",
      "::1",
      "loopback",
    ]);
    expect(readEnv({}).TRUSTED_PROXIES).toBeUndefined();
  });

  it("refuses what is not an address or range, naming it", () => {
    expect(() => readEnv({ TRUSTED_PROXIES: "10.0.0.5,proxy.example.org" })).toThrow(/proxy\.example\.org/);
    expect(() => readEnv({ TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(/TRUSTED_PROXIES/);
  });
});
