/**
 * Who is calling: verifies the bearer token, refuses revoked tokens, tokens signed before the
 * user's last password change and every token of a deactivated user, and attaches the signed-in
 * user to the request.
 */
import { and, eq, exists, isNull, notExists, sql, type Placeholder } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { Database } from "../db/client.ts";
import { preparedPerDatabase } from "../db/prepared-per-database.ts";
import { revokedTokens, users } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";
import type { SessionClaims, TokenSigner } from "./tokens.ts";

export type SignedInUser = typeof users.$inferSelect;
export type Session = { user: SignedInUser; claims: SessionClaims; token: string };

declare module "fastify" {
  interface FastifyRequest {
    session?: Session;
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/**
 * The user and the token's revocation in one round trip: every authenticated call pays it.
 * Apart from authenticate so that bench/search can run the very same SQL bare. A revocation's
 * row needs no expiry test: it expires with its token, which no longer verifies.
 */
export function sessionRowSelect(db: Database, userId: number | Placeholder, jti: string | Placeholder) {
  return db
    .select({ user: users, revokedJti: revokedTokens.jti })
    .from(users)
    .leftJoin(revokedTokens, eq(revokedTokens.jti, jti))
    .where(eq(users.id, userId));
}

/** Built once per database: every authenticated call runs it, and building costs more than it. */
const preparedSessionRows = preparedPerDatabase((db) =>
  sessionRowSelect(db, sql.placeholder("userId"), sql.placeholder("jti")).prepare("session_row"),
);

function sessionRows(db: Database, userId: number, jti: string) {
  return preparedSessionRows(db).execute({ userId, jti });
}

/** The bearer token and its claims, from its signature alone: no database is asked. */
async function verifiedToken(request: FastifyRequest, tokens: TokenSigner) {
  const token = bearerToken(request);
  if (!token) throw new HttpError(401, "Authorization required", "token_missing");
  const claims = await tokens.verify(token);
  if (!claims) throw new HttpError(401, "Invalid or expired token", "token_invalid");
  return { token, claims };
}

/** The 401 of every request of a deactivated user (and the 403 of their sign-in says the same). */
export const USER_DEACTIVATED_MESSAGE =
  "This account has been deactivated. Ask your administrator to reactivate it.";

function userDeactivated() {
  return new HttpError(401, USER_DEACTIVATED_MESSAGE, "user_deactivated");
}

/** The stored side of a signed token: its user, unchanged since signing, and no revocation. */
async function checkedSession(db: Database, claims: SessionClaims, token: string): Promise<Session> {
  const [row] = await sessionRows(db, claims.id, claims.jti);
  const user = row?.user;
  // Said before the version check (deactivation bumps it): the app tells the user why.
  if (user?.deactivatedAt) throw userDeactivated();
  if (!user || user.tokenVersion !== claims.ver) {
    throw new HttpError(401, "Invalid or expired token", "token_invalid");
  }
  if (row.revokedJti !== null) throw new HttpError(401, "Token has been signed out", "token_revoked");
  return { user, claims, token };
}

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The handler checks the session itself: its read holds the check in its own SQL
     * (sessionHolds) and asks for it (confirmedSession) only when the read finds nothing, or it
     * runs the check beside its reads (alongsideSessionCheck). The authentication hook verifies
     * the token's signature and leaves the stored side to the handler.
     */
    sessionCheckedByRead?: boolean;
  }
  interface FastifyRequest {
    /** The signed claims of such a call, and its session check, run once when first asked for. */
    pendingSession?: { claims: SessionClaims; check: () => Promise<Session> };
  }
}

export async function authenticate(request: FastifyRequest, db: Database, tokens: TokenSigner) {
  const { token, claims } = await verifiedToken(request, tokens);
  if (!request.routeOptions.config.sessionCheckedByRead) {
    request.session = await checkedSession(db, claims, token);
    return;
  }
  let check: Promise<Session> | undefined;
  request.pendingSession = { claims, check: () => (check ??= checkedSession(db, claims, token)) };
}

/** The session of a call whose read holds the session check, checked on its own. */
export async function confirmedSession(request: FastifyRequest): Promise<Session> {
  if (request.session) return request.session;
  if (!request.pendingSession) throw new HttpError(401, "Authorization required", "token_missing");
  request.session = await request.pendingSession.check();
  return request.session;
}

/**
 * A read-only call's steps (its access check, its reads) run at the same time as its session
 * check, in one round trip's time instead of one after another; nothing is answered until all
 * are done, and the refusals keep their order: a lapsed session's 401 first, then each step's own
 * refusal in the order given. Only for reads with no effect (a route marked sessionCheckedByRead).
 */
export async function alongsideSessionCheck<const Steps extends readonly unknown[]>(
  request: FastifyRequest,
  steps: Steps,
): Promise<{ -readonly [K in keyof Steps]: Awaited<Steps[K]> }> {
  const [session, ...settled] = await Promise.allSettled([confirmedSession(request), ...steps]);
  if (session.status === "rejected") throw session.reason;
  for (const step of settled) if (step.status === "rejected") throw step.reason;
  return settled.map((step) => (step as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof Steps]: Awaited<Steps[K]>;
  };
}

/** The signed claims of a call whose read holds the session check: whose read it is. */
export function unconfirmedClaims(request: FastifyRequest): SessionClaims {
  if (!request.pendingSession) throw new HttpError(401, "Authorization required", "token_missing");
  return request.pendingSession.claims;
}

/**
 * The session check as a condition of another query: the token's user exists at the token's
 * version and the token is not revoked (what checkedSession asks, in its own round trip). A read
 * that answers rows only under it has proved the session in the same statement: the search,
 * asked at every letter typed, saves a round trip, and on the embedded database (one query at a
 * time) a whole query. The read runs before a revoked token is known: only for reads with no
 * effect, whose SQL also applies the permissions. A read that finds nothing cannot tell a lapsed
 * session from no match: it asks confirmedSession, and a lapsed session answers its 401.
 */
export function sessionHolds(
  db: Database,
  userId: number | Placeholder,
  tokenVersion: number | Placeholder,
  jti: string | Placeholder,
) {
  return and(
    exists(
      db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, userId), eq(users.tokenVersion, tokenVersion), isNull(users.deactivatedAt))),
    ),
    notExists(db.select({ jti: revokedTokens.jti }).from(revokedTokens).where(eq(revokedTokens.jti, jti))),
  );
}

/** The session of a route behind the authentication hook. */
export function requireSession(request: FastifyRequest): Session {
  if (!request.session) throw new HttpError(401, "Authorization required", "token_missing");
  return request.session;
}
