import { expect, it } from "vitest";
import { like, sql } from "drizzle-orm";
import { errorBody } from "../../core/contracts/errors.ts";
import { loginAttempts } from "../../server/db/schema.ts";
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
        .where(like(loginAttempts.key, `${user.username}%`));
      expect((await api.login(user.username, user.password, { remoteAddress: address })).statusCode).toBe(
        200,
      );
    });
  },
  { loginRateLimit: { maxFailures: MAX_FAILURES, windowSeconds: 900 } },
);
