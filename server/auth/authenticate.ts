/**
 * Who is calling: verifies the bearer token, refuses revoked tokens and tokens signed before the
 * user's last password change, and attaches the signed-in user to the request.
 */
import { eq, sql, type Placeholder } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { Database } from "../db/client.ts";
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
const preparedSessionRows = new WeakMap<Database, ReturnType<typeof prepareSessionRows>>();

function prepareSessionRows(db: Database) {
  return sessionRowSelect(db, sql.placeholder("userId"), sql.placeholder("jti")).prepare("session_row");
}

function sessionRows(db: Database, userId: number, jti: string) {
  let prepared = preparedSessionRows.get(db);
  if (!prepared) {
    prepared = prepareSessionRows(db);
    preparedSessionRows.set(db, prepared);
  }
  return prepared.execute({ userId, jti });
}

/** The bearer token and its claims, from its signature alone: no database is asked. */
async function verifiedToken(request: FastifyRequest, tokens: TokenSigner) {
  const token = bearerToken(request);
  if (!token) throw new HttpError(401, "Authorization required", "token_missing");
  const claims = await tokens.verify(token);
  if (!claims) throw new HttpError(401, "Invalid or expired token", "token_invalid");
  return { token, claims };
}

/** The stored side of a signed token: its user, unchanged since signing, and no revocation. */
async function checkedSession(db: Database, claims: SessionClaims, token: string): Promise<Session> {
  const [row] = await sessionRows(db, claims.id, claims.jti);
  const user = row?.user;
  if (!user || user.tokenVersion !== claims.ver) {
    throw new HttpError(401, "Invalid or expired token", "token_invalid");
  }
  if (row.revokedJti !== null) throw new HttpError(401, "Token has been signed out", "token_revoked");
  return { user, claims, token };
}

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The handler reads while the session is checked (readAlongsideSessionCheck): the
     * authentication hook verifies the token's signature, starts the check, and does not wait.
     */
    readsAlongsideSessionCheck?: boolean;
  }
  interface FastifyRequest {
    /** The session check of such a call, under way; its handler waits for it. */
    pendingSession?: { claims: SessionClaims; check: Promise<Session> };
  }
}

export async function authenticate(request: FastifyRequest, db: Database, tokens: TokenSigner) {
  const { token, claims } = await verifiedToken(request, tokens);
  const check = checkedSession(db, claims, token);
  if (!request.routeOptions.config.readsAlongsideSessionCheck) {
    request.session = await check;
    return;
  }
  // Awaited by the handler; until then a failed check must not count as an unhandled rejection.
  check.catch(() => undefined);
  request.pendingSession = { claims, check };
}

/** The session of a call that checks it alongside its read, once the check has answered. */
export async function confirmedSession(request: FastifyRequest): Promise<Session> {
  if (request.session) return request.session;
  if (!request.pendingSession) throw new HttpError(401, "Authorization required", "token_missing");
  request.session = await request.pendingSession.check;
  return request.session;
}

/**
 * A read that needs only the caller's user id, run while the session is checked rather than
 * after it: on a database across a network this saves the session's round trip, which the
 * search, asked at every letter typed, would otherwise pay each time. Only for reads with no
 * effect: the read runs before a revoked token is known, and its result is dropped (the check's
 * 401 is thrown instead) unless the session holds. The read's own SQL applies the permissions.
 */
export async function readAlongsideSessionCheck<Result>(
  request: FastifyRequest,
  read: (userId: number) => Promise<Result>,
): Promise<{ session: Session; result: Result }> {
  if (!request.pendingSession) throw new HttpError(401, "Authorization required", "token_missing");
  const reading = read(request.pendingSession.claims.id);
  // Both settle before either is looked at: a failed check never leaves a read unawaited.
  const [session, result] = await Promise.allSettled([confirmedSession(request), reading]);
  if (session.status === "rejected") throw session.reason;
  if (result.status === "rejected") throw result.reason;
  return { session: session.value, result: result.value };
}

/** The session of a route behind the authentication hook. */
export function requireSession(request: FastifyRequest): Session {
  if (!request.session) throw new HttpError(401, "Authorization required", "token_missing");
  return request.session;
}
