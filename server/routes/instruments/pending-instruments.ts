/**
 * GET /control/pending_instruments, optional ?study_id (header version 3.4.0): the open clinician
 * instrument instances of every participant the user may see (the participant's study and site
 * both in the user's permissions), oldest start first, at most PENDING_INSTRUMENTS_MAX.
 */
import { pendingInstrumentsCall } from "../../../core/contracts/calls/instrument-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import {
  PENDING_INSTRUMENTS_MAX,
  type PendingInstrumentsResponse,
} from "../../../core/contracts/instrument-schemas.ts";
import { instrumentUrl } from "../../../core/contracts/instrument-lists.ts";
import { confirmedSession, sessionHolds, unconfirmedClaims } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { aliased, preparedRows, type Database } from "../../db/client.ts";
import { isoTime, type DriverTimestamp } from "../../db/iso-time.ts";
import { preparedPerDatabase } from "../../db/prepared-per-database.ts";
import {
  instrumentInstances,
  instruments,
  participants,
  sitePermissions,
  studyPermissions,
} from "../../db/schema.ts";
import { HttpError } from "../../http/errors.ts";
import { isOpenInstance } from "../../instruments/open-instances.ts";
import { participantSitePermission, participantStudyPermission } from "../../participants/site-access.ts";
import { hasStudyPermission } from "../../users/load-me.ts";
import { INSTRUMENT_TYPE } from "../../../core/contracts/instrument-lists.ts";

/** A row as the driver reads it: timestamps as Date (postgres.js, PGlite) or ISO text. */
type PendingRow = {
  participant_id: number;
  subject_id: string;
  site_id: number;
  study_id: number;
  instrument_id: number;
  name: string;
  permissions: string[];
  slug: string;
  instance_id: number;
  start_date: DriverTimestamp;
  expiration: DriverTimestamp | null;
};

/**
 * The open instances the user may see, oldest start first, one more than the answer holds (to
 * tell it was cut short); of one study when asked (shape "study"). Only what the answer names (the
 * instrument's metadata, its schedule, is the filter's), read as plain rows: Drizzle's mapping of
 * 500 rows' cells cost more than the statement.
 */
const pendingRows = preparedPerDatabase((db: Database, shape: string) => {
  const userId = sql.placeholder("userId");
  const conditions = [
    eq(instruments.instrumentType, INSTRUMENT_TYPE.clinician),
    // A retired instrument (removed from the study file) is to be done by no one.
    isNull(instruments.retiredAt),
    isOpenInstance(sql.placeholder("now")),
    shape === "study" ? eq(participants.studyId, sql.placeholder("studyId")) : undefined,
    // The session check in the same statement (sessionHolds): one round trip a call.
    sessionHolds(db, userId, sql.placeholder("tokenVersion"), sql.placeholder("jti")),
  ];
  const select = db
    .select({
      participant_id: aliased(participants.id, "participant_id"),
      subject_id: aliased(participants.subjectId, "subject_id"),
      site_id: aliased(participants.siteId, "site_id"),
      study_id: aliased(instruments.studyId, "study_id"),
      instrument_id: aliased(instruments.id, "instrument_id"),
      name: aliased(instruments.displayName, "name"),
      permissions: aliased(instruments.permissions, "permissions"),
      slug: aliased(instruments.slug, "slug"),
      instance_id: aliased(instrumentInstances.id, "instance_id"),
      start_date: aliased(instrumentInstances.startDate, "start_date"),
      expiration: aliased(instrumentInstances.expiration, "expiration"),
    })
    .from(instrumentInstances)
    .innerJoin(instruments, eq(instruments.id, instrumentInstances.instrumentId))
    .innerJoin(
      participants,
      and(
        eq(participants.id, instrumentInstances.participantId),
        eq(participants.studyId, instruments.studyId),
      ),
    )
    .innerJoin(studyPermissions, participantStudyPermission(userId))
    .innerJoin(sitePermissions, participantSitePermission(userId))
    .where(and(...conditions))
    .orderBy(asc(instrumentInstances.startDate), asc(instrumentInstances.id))
    .limit(PENDING_INSTRUMENTS_MAX + 1);
  return preparedRows<
    PendingRow,
    { userId: number; tokenVersion: number; jti: string; now: string; studyId?: number }
  >(db, `pending_instruments_${shape}`, select.getSQL());
});

export function pendingInstrumentsRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(
    app,
    pendingInstrumentsCall,
    async (request): Promise<PendingInstrumentsResponse> => {
      const claims = unconfirmedClaims(request);
      const { study_id } = request.query;
      // One statement: the session check and the user's permissions are held in its SQL (a row
      // is read only through the user's permission in its study and site).
      const rows = await pendingRows(ctx.db, study_id === undefined ? "all" : "study").all({
        userId: claims.id,
        tokenVersion: claims.ver,
        jti: claims.jti,
        // As text: a placeholder is not passed through its column's encoder (postgres.js would
        // refuse a Date here).
        now: new Date().toISOString(),
        studyId: study_id,
      });
      if (rows.length === 0) {
        // Nothing found: a session that no longer holds (its 401 first), a study that is not the
        // user's (403), or nothing to do.
        const [, mayReadStudy] = await Promise.all([
          confirmedSession(request),
          study_id === undefined ? true : hasStudyPermission(ctx.db, claims.id, study_id),
        ]);
        if (!mayReadStudy) {
          throw new HttpError(403, "You do not have access to this study.", "study_forbidden");
        }
      }

      return {
        instruments: rows.slice(0, PENDING_INSTRUMENTS_MAX).map((row) => ({
          participant_id: row.participant_id,
          subject_id: row.subject_id,
          study_id: row.study_id,
          site_id: row.site_id,
          instrument_id: row.instrument_id,
          instance_id: row.instance_id,
          name: row.name,
          permissions: row.permissions,
          url: instrumentUrl(row.study_id, row.instrument_id, row.slug),
          start_date: isoTime(row.start_date),
          expiration: isoTime(row.expiration),
        })),
        truncated: rows.length > PENDING_INSTRUMENTS_MAX,
      };
    },
    { sessionCheckedByRead: true },
  );
}
