/**
 * The inbox's calls (core/contracts/calls/announcement-calls.ts):
 * - GET /control/participants/me/announcements: the user's announcements, newest id first, with
 *   their read state (set by the read event, server/routes/events/post-events.ts);
 * - POST /control/announcements (Idempotency-Key): a coordinator of the study, or an
 *   administrator with a permission in it, sends an announcement to its staff or one site's.
 *   The HTML is sanitised before it is stored; content with no text left is a 400 and stores
 *   nothing. 403 for anyone else, and for a study or site outside the author's permissions;
 * - GET /control/clinro/me/announcement_instruments?study_id: the study's ANNOUNCEMENT
 *   instruments delivered at the user's sites (announcement-instruments.ts), 403 for a study
 *   the user holds no permission in.
 */
import type { FastifyInstance } from "fastify";
import {
  listAnnouncementInstrumentsCall,
  listAnnouncementsCall,
  postAnnouncementCall,
} from "../../../core/contracts/calls/announcement-calls.ts";
import { listAnnouncementInstrumentsFor } from "../../announcements/announcement-instruments.ts";
import { HttpError } from "../../http/errors.ts";
import { hasStudyPermission } from "../../users/load-me.ts";
import {
  insertAnnouncement,
  listAnnouncementsFor,
  requireAnnouncementAuthor,
} from "../../announcements/announcement-records.ts";
import { announcementText, sanitizeAnnouncementHtml } from "../../announcements/sanitize-announcement.ts";
import { alongsideSessionCheck, requireSession, unconfirmedClaims } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { invalidRequest } from "../../http/errors.ts";
import { registerCall } from "../../http/register-call.ts";
import {
  jsonRequestIdentity,
  idempotencyKeyOf,
  runIdempotentWrite,
} from "../../idempotency/idempotent-write.ts";

export function announcementRoutes(app: FastifyInstance, ctx: AppContext) {
  // The inbox is asked at every sign-in and every return to the portal: its list is read beside
  // the session check (one round trip's wait), and answered only if the session holds.
  registerCall(
    app,
    listAnnouncementsCall,
    async (request) => {
      const claims = unconfirmedClaims(request);
      const [announcements] = await alongsideSessionCheck(request, [listAnnouncementsFor(ctx.db, claims.id)]);
      return { announcements };
    },
    { sessionCheckedByRead: true },
  );

  registerCall(
    app,
    listAnnouncementInstrumentsCall,
    async (request) => {
      const claims = unconfirmedClaims(request);
      const studyId = request.query.study_id;
      const [mayRead, announcements] = await alongsideSessionCheck(request, [
        hasStudyPermission(ctx.db, claims.id, studyId),
        listAnnouncementInstrumentsFor(ctx.db, claims.id, studyId),
      ]);
      if (!mayRead) throw new HttpError(403, "You do not have access to this study.", "study_forbidden");
      return { announcements };
    },
    { sessionCheckedByRead: true },
  );

  registerCall(app, postAnnouncementCall, async (request, reply) => {
    const { user } = requireSession(request);
    const key = idempotencyKeyOf(request);
    const body = request.body;
    const siteId = body.site_id ?? null;
    await requireAnnouncementAuthor(ctx.db, user, body.study_id, siteId);
    const content = sanitizeAnnouncementHtml(body.content);
    if (announcementText(content) === "") {
      throw invalidRequest([{ path: "content", message: "content has no text once unsafe HTML is removed" }]);
    }
    const result = await runIdempotentWrite(ctx.db, {
      ...jsonRequestIdentity(request, user.id, key),
      async write(tx) {
        const id = await insertAnnouncement(tx, {
          studyId: body.study_id,
          siteId,
          title: body.title,
          content,
          authorUserId: user.id,
        });
        const [stored] = await listAnnouncementsFor(tx, user.id, id);
        return { statusCode: 201, body: stored };
      },
    });
    return reply
      .code(result.statusCode)
      .header("idempotent-replayed", String(result.replayed))
      .send(result.body);
  });
}
