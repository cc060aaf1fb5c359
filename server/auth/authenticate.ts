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

export async function authenticate(
  request: FastifyRequest,
  db: Database,
  tokens: TokenSigner,
): Promise<Session> {
  const token = bearerToken(request);
  if (!token) throw new HttpError(401, "Authorization required", "token_missing");
  const claims = await tokens.verify(token);
  if (!claims) throw new HttpError(401, "Invalid or expired token", "token_invalid");
  const [row] = await sessionRows(db, claims.id, claims.jti);
  const user = row?.user;
  if (!user || user.tokenVersion !== claims.ver) {
    throw new HttpError(401, "Invalid or expired token", "token_invalid");
  }
  if (row.revokedJti !== null) throw new HttpError(401, "Token has been signed out", "token_revoked");
  const session = { user, claims, token };
  request.session = session;
  return session;
}

/** The session of a route behind the authentication hook. */
export function requireSession(request: FastifyRequest): Session {
  if (!request.session) throw new HttpError(401, "Authorization required", "token_missing");
  return request.session;
}
