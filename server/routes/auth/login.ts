/**
 * POST /control/clinro/login (no auth) and POST /control/clinro/logout (signs this token out).
 */
import { loginCall, logoutCall } from "../../../core/contracts/calls/account-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { type LoginResponse } from "../../../core/contracts/auth.ts";
import { recordAuditEvent, withAuditActor } from "../../audit/audit-trail.ts";
import { admitLoginAttempt, forgiveLoginAttempt } from "../../auth/login-rate-limit.ts";
import { verifyPassword } from "../../auth/passwords.ts";
import { requireSession, USER_DEACTIVATED_MESSAGE } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { users, revokedTokens } from "../../db/schema.ts";
import { HttpError } from "../../http/errors.ts";

/** UTC offsets in the world run from -12:00 to +14:00. */
const MAX_UTC_OFFSET_MINUTES = 14 * 60;

function parseUtcOffset(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  const minutes = Number(value);
  if (!Number.isInteger(minutes) || Math.abs(minutes) > MAX_UTC_OFFSET_MINUTES) {
    throw new HttpError(
      400,
      "hpi-utc-offset must be a whole number of minutes between -840 and 840",
      "invalid_utc_offset",
    );
  }
  return minutes;
}

export function publicLoginRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, loginCall, async (request, reply) => {
    const body = request.body;
    const utcOffset = parseUtcOffset(request.headers["hpi-utc-offset"]);
    const username = body.username.toLowerCase();
    // The client's address: the socket's, or the one a trusted proxy forwarded (TRUSTED_PROXIES).
    const address = request.ip;

    // Counted before the password is checked (login-rate-limit.ts): parallel guesses get no more.
    if (!(await admitLoginAttempt(ctx.db, ctx.loginRateLimit, username, address))) {
      await recordAuditEvent(ctx.db, {
        actorUserId: null,
        action: "sign_in_failed",
        details: { username, address, reason: "too_many_attempts" },
      });
      throw new HttpError(
        429,
        "Too many sign-in attempts. Please wait a few minutes and try again.",
        "too_many_attempts",
      );
    }
    const [user] = await ctx.db.select().from(users).where(eq(users.username, username));
    if (!(await verifyPassword(user?.passwordHash, body.password)) || !user) {
      // The actor stays unknown: nobody proved who they are. user_id says which account was tried.
      await recordAuditEvent(ctx.db, {
        actorUserId: null,
        action: "sign_in_failed",
        details: {
          username,
          address,
          reason: user ? "wrong_password" : "unknown_user",
          user_id: user?.id ?? null,
        },
      });
      throw new HttpError(400, "Your username or password is incorrect.", "invalid_credentials");
    }
    await forgiveLoginAttempt(ctx.db, username, address);
    if (user.deactivatedAt) {
      // Said only to whoever knows the password: a guesser learns nothing about the account.
      await recordAuditEvent(ctx.db, {
        actorUserId: null,
        action: "sign_in_failed",
        details: { username, address, reason: "deactivated", user_id: user.id },
      });
      throw new HttpError(403, USER_DEACTIVATED_MESSAGE, "user_deactivated");
    }
    await withAuditActor(ctx.db, user.id, (tx) =>
      tx
        .update(users)
        .set({ lastLogin: new Date(), ...(utcOffset === undefined ? {} : { utcOffsetMinutes: utcOffset }) })
        .where(eq(users.id, user.id)),
    );
    // Its own statement, after the transaction: the event's insert takes the audit chain's lock,
    // which inside the transaction stayed held until this process sent COMMIT, a round trip
    // every other audited write of every server waited for (a wave of sign-ins on a
    // busy machine held it over a second at a time).
    await recordAuditEvent(ctx.db, { actorUserId: user.id, action: "sign_in", details: { address } });

    const answer: LoginResponse = {
      token: await ctx.tokens.sign(user),
      id: user.id,
      username: user.username,
      is_temporary_password: user.isTemporaryPassword,
    };
    return reply.send(answer);
  });
}

export function loginRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, logoutCall, async (request, reply) => {
    const { claims, user } = requireSession(request);
    await withAuditActor(ctx.db, user.id, (tx) =>
      tx
        .insert(revokedTokens)
        .values({ jti: claims.jti, userId: user.id, expiresAt: new Date(claims.exp * 1000) })
        .onConflictDoNothing(),
    );
    return reply.code(204).send();
  });
}
