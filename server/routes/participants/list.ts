/**
 * GET /control/studies/{studyId}/sites/{siteId}/participants?sort=&order=&limit=&cursor=: a site's
 * participants, sorted and paged by keyset (core/contracts/participant-list.ts). Each order has
 * its btree index (migration 0016): a page is read from where the previous one ended, as a row
 * comparison on the index's columns, so its cost does not grow with how far into the list it is.
 *
 * The cursor is base64url of the JSON [sort, order, ...the last row's sort key]: opaque to the
 * app, checked here (a cursor of another sort or order, or not made here, is a 400 naming it).
 */
import { and, asc, desc, eq, exists, sql, type SQL } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { listParticipantsCall } from "../../../core/contracts/calls/study-calls.ts";
import { MAX_ID } from "../../../core/contracts/input-bounds.ts";
import {
  PARTICIPANT_LIST_CURSOR_MAX_LENGTH,
  type ParticipantListOrder,
  type ParticipantListResponse,
  type ParticipantListSort,
} from "../../../core/contracts/participant-list.ts";
import { confirmedSession, sessionHolds, unconfirmedClaims } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { aliased, preparedRows, type Database } from "../../db/client.ts";
import { isoTime, type DriverTimestamp } from "../../db/iso-time.ts";
import { preparedPerDatabase } from "../../db/prepared-per-database.ts";
import { participants } from "../../db/schema.ts";
import { HttpError } from "../../http/errors.ts";
import { registerCall } from "../../http/register-call.ts";
import { canReadSite, siteAccess, siteForbidden } from "../../participants/site-access.ts";

/** The sort key of a row: what the cursor carries, in the index's order (the id last). */
type SortKey = [string, string, number] | [string, number] | [number];

/** Each order's key expressions, in the column order of its index. */
const KEY_COLUMNS: Record<ParticipantListSort, () => SQL[]> = {
  last_name: () => [
    sql`lower(${participants.lname})`,
    sql`lower(${participants.fname})`,
    sql`${participants.id}`,
  ],
  subject_id: () => [sql`${participants.subjectId}`, sql`${participants.id}`],
  enrolled: () => [sql`${participants.id}`],
};

function keyOf(
  sort: ParticipantListSort,
  row: { id: number; subject_id: string; lower_lname: string; lower_fname: string },
): SortKey {
  switch (sort) {
    case "last_name":
      // The database's lower(), read with the row: JavaScript's toLowerCase differs from it
      // under some collations (a C locale lower-cases ASCII only), and the key must be its own.
      return [row.lower_lname, row.lower_fname, row.id];
    case "subject_id":
      return [row.subject_id, row.id];
    case "enrolled":
      return [row.id];
  }
}

function badCursor(reason: string) {
  return new HttpError(400, `Invalid request. cursor: ${reason}`, "invalid_request", [
    { path: "cursor", message: reason },
  ]);
}

export function encodeCursor(sort: ParticipantListSort, order: ParticipantListOrder, key: SortKey) {
  return Buffer.from(JSON.stringify([sort, order, ...key]), "utf8").toString("base64url");
}

/** The sort key a cursor names, checked against the sort and order it is asked with. */
export function decodeCursor(
  cursor: string,
  sort: ParticipantListSort,
  order: ParticipantListOrder,
): SortKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw badCursor("is not a cursor this list answered");
  }
  if (!Array.isArray(parsed) || typeof parsed[0] !== "string" || typeof parsed[1] !== "string") {
    throw badCursor("is not a cursor this list answered");
  }
  const [cursorSort, cursorOrder, ...key] = parsed as [string, string, ...unknown[]];
  if (cursorSort !== sort || cursorOrder !== order) {
    throw badCursor(`was answered for sort=${cursorSort}&order=${cursorOrder}: ask its next page with those`);
  }
  const texts = key.slice(0, -1);
  const id = key.at(-1);
  const expected = KEY_COLUMNS[sort]().length;
  if (
    key.length !== expected ||
    !texts.every(
      (value) => typeof value === "string" && value.length <= PARTICIPANT_LIST_CURSOR_MAX_LENGTH,
    ) ||
    typeof id !== "number" ||
    !Number.isInteger(id) ||
    id < 1 ||
    id > MAX_ID
  ) {
    throw badCursor("is not a cursor this list answered");
  }
  return key as SortKey;
}

/** The rows after the cursor's key in the list's order: one row comparison on the index's columns. */
function afterKey(sort: ParticipantListSort, order: ParticipantListOrder): SQL {
  const columns = KEY_COLUMNS[sort]();
  const values = sql.join(
    columns.map((_, index) => sql`${sql.placeholder(`key${index}`)}`),
    sql`, `,
  );
  const key = sql.join(columns, sql`, `);
  return order === "asc" ? sql`(${key}) > (${values})` : sql`(${key}) < (${values})`;
}

/**
 * The session check and the site access rule, held in the page's own SQL: the list answers
 * nothing unless both hold.
 */
function allowedRows(db: Database) {
  const userId = sql.placeholder("userId");
  const studyId = sql.placeholder("studyId");
  const siteId = sql.placeholder("siteId");
  return and(
    eq(participants.studyId, studyId),
    eq(participants.siteId, siteId),
    sessionHolds(db, userId, sql.placeholder("tokenVersion"), sql.placeholder("jti")),
    exists(siteAccess(db, userId, studyId, siteId)),
  );
}

type PageShape = `${ParticipantListSort} ${ParticipantListOrder} ${"first" | "after"}`;

/** A page's row as the database sends it (preparedRows: no cell is mapped). */
type PageRow = {
  id: number;
  fname: string;
  lname: string;
  subject_id: string;
  date_of_birth: string | null;
  enrolled_at: DriverTimestamp | null;
  lower_lname: string;
  lower_fname: string;
  /** The site's count, on the first page only. */
  total: number | null;
};

/**
 * One prepared page per sort, order and first-or-next page, per database, read as plain rows:
 * Drizzle's mapping of each cell cost as much server time as the page's statement.
 */
const preparedPages = preparedPerDatabase((db, shape) => {
  const [sort, order, page] = shape.split(" ") as [ParticipantListSort, ParticipantListOrder, string];
  const allowed = allowedRows(db);
  const direction = order === "asc" ? asc : desc;
  const select = db
    .select({
      id: aliased(participants.id, "id"),
      fname: aliased(participants.fname, "fname"),
      lname: aliased(participants.lname, "lname"),
      subject_id: aliased(participants.subjectId, "subject_id"),
      date_of_birth: aliased(participants.dateOfBirth, "date_of_birth"),
      enrolled_at: aliased(participants.enrolledAt, "enrolled_at"),
      lower_lname: sql<string>`lower(${participants.lname})`.as("lower_lname"),
      lower_fname: sql<string>`lower(${participants.fname})`.as("lower_fname"),
      // The site's count on the first page only, in the page's own statement: an uncorrelated
      // subquery, which PostgreSQL runs once (an InitPlan), not once a row. One statement where
      // two ran at once: each wakes a database process, and on a small server the wake-ups cost
      // more than a count over the site's index.
      total: (page === "first"
        ? sql`(select count(*)::int from ${participants} counted
              where counted.study_id = ${sql.placeholder("studyId")}
                and counted.site_id = ${sql.placeholder("siteId")})`
        : sql`null::int`
      ).as("total"),
    })
    .from(participants)
    .where(page === "after" ? and(allowed, afterKey(sort, order)) : allowed)
    .orderBy(...KEY_COLUMNS[sort]().map((column) => direction(column)))
    .limit(sql.placeholder("limit"));
  return preparedRows<PageRow, Record<string, unknown>>(
    db,
    `participant_list_${shape.replaceAll(" ", "_")}`,
    select.getSQL(),
  );
});

export function participantListRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(
    app,
    listParticipantsCall,
    async (request): Promise<ParticipantListResponse> => {
      const claims = unconfirmedClaims(request);
      const { studyId, siteId } = request.params;
      const { sort, order, limit, cursor } = request.query;
      // The cursor is checked before the database is asked anything: bad input is a 400 whoever asks.
      const after = cursor === undefined ? undefined : decodeCursor(cursor, sort, order);

      // The page, holding the session and access checks (and on the first page the count): one
      // round trip where four ran one after another.
      const parameters = {
        userId: claims.id,
        tokenVersion: claims.ver,
        jti: claims.jti,
        studyId,
        siteId,
        // One row more than the page: whether there is a next page, without counting.
        limit: limit + 1,
        ...Object.fromEntries((after ?? []).map((value, index) => [`key${index}`, value])),
      };
      const shape: PageShape = `${sort} ${order} ${after ? "after" : "first"}`;
      const rows = await preparedPages(ctx.db, shape).all(parameters);
      // A first page with no rows: a site with no participants (or refused, below).
      const total = after === undefined ? (rows[0]?.total ?? 0) : null;
      if (rows.length === 0) {
        // Nothing found: a session that no longer holds (its 401 first), a site that is not the
        // user's (403), or a site with no participants (after the cursor).
        const [, mayRead] = await Promise.all([
          confirmedSession(request),
          canReadSite(ctx.db, claims.id, studyId, siteId),
        ]);
        if (!mayRead) throw siteForbidden();
      }
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        // Field by field: a rest pattern that drops the key columns costs V8 twice as much.
        participants: page.map((row) => ({
          id: row.id,
          fname: row.fname,
          lname: row.lname,
          subject_id: row.subject_id,
          date_of_birth: row.date_of_birth,
          enrolled_at: isoTime(row.enrolled_at),
        })),
        total,
        next_cursor: rows.length > limit && last ? encodeCursor(sort, order, keyOf(sort, last)) : null,
      };
    },
    { sessionCheckedByRead: true },
  );
}
