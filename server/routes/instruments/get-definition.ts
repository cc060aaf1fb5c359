/**
 * GET /control/studies/{studyId}/instruments/{instrumentId}/{instrument} and the same under
 * /control/admin/studies/ (the client uses that one): the instrument's latest survey definition,
 * as JSON or, when it was imported as a zip, as a zip holding `<slug>.json`. Any query string is
 * accepted and ignored. The service worker caches the answer network-first, so it is never
 * cached by HTTP caches without asking (no-cache).
 */
import { getAdminDefinitionCall, getDefinitionCall } from "../../../core/contracts/calls/instrument-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { DEFINITION_ZIP_CONTENT_TYPE } from "../../../core/contracts/instrument-schemas.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { instruments } from "../../db/schema.ts";
import { HttpError } from "../../http/errors.ts";
import packageJson from "../../../package.json" with { type: "json" };
import { acceptsGzip } from "../../http/accepts-gzip.ts";
import { checkedDefinitionAnswer } from "../../instruments/definition-answers.ts";
import { latestServedDefinition, zipDefinition } from "../../instruments/instrument-definitions.ts";
import { hasStudyPermission } from "../../users/load-me.ts";

const CALLS = [getDefinitionCall, getAdminDefinitionCall];

/** A slug as a file name in a header: anything but letters, digits, _ . - becomes -. */
function safeFileName(slug: string) {
  return slug.replace(/[^A-Za-z0-9_.-]/g, "-");
}

export function definitionRoutes(app: FastifyInstance, ctx: AppContext) {
  for (const call of CALLS) {
    registerCall(app, call, async (request, reply) => {
      const { user } = requireSession(request);
      const { studyId, instrumentId, instrument: slug } = request.params;
      // The same 403 whether the study exists or not.
      if (!(await hasStudyPermission(ctx.db, user.id, studyId))) {
        throw new HttpError(403, "You do not have access to this study.", "study_forbidden");
      }
      const [instrument] = await ctx.db
        .select({
          id: instruments.id,
          slug: instruments.slug,
          displayName: instruments.displayName,
          permissions: instruments.permissions,
        })
        .from(instruments)
        .where(and(eq(instruments.id, instrumentId), eq(instruments.studyId, studyId)));
      if (!instrument || instrument.slug !== slug) {
        throw new HttpError(
          404,
          `Study ${studyId} has no instrument ${instrumentId} named ${slug}.`,
          "instrument_not_found",
        );
      }
      // Checked by the engine's own rules, once per version (the check is cached): an app of
      // this same version takes it as checked instead of validating 1,000 questions again before
      // its first question (validated_for_app). One that does not pass goes as stored, and the
      // app's own validation names its problems.
      const latest = await latestServedDefinition(ctx.db, instrument.id);
      if (!latest) {
        throw new HttpError(404, `Instrument ${instrumentId} has no definition yet.`, "definition_not_found");
      }
      // Who may administer it comes along, so the page can show the access-denied panel without
      // another call (and offline, from the worker's cache).
      const served = {
        ...latest.definition,
        display_name: instrument.displayName,
        permissions: instrument.permissions,
        ...(latest.checked ? { validated_for_app: packageJson.version } : {}),
      };
      reply.header("cache-control", "no-cache");
      if (latest.servedAs === "zip") {
        reply
          .type(DEFINITION_ZIP_CONTENT_TYPE)
          .header("content-disposition", `attachment; filename="${safeFileName(instrument.slug)}.zip"`);
      }
      const answer = latest.checked
        ? checkedDefinitionAnswer(ctx.db, {
            rowId: latest.rowId,
            servedAs: latest.servedAs,
            slug: instrument.slug,
            displayName: instrument.displayName,
            permissions: instrument.permissions,
            served,
          })
        : undefined;
      if (answer?.kind === "zip") return reply.send(answer.body);
      if (answer?.kind === "json") {
        // Checked against the answer schema when it was made (checkedDefinitionAnswer): the text,
        // or its gzip kept with it, goes out as it is; @fastify/compress leaves an encoded body.
        reply.type("application/json; charset=utf-8").header("vary", "accept-encoding");
        if (!acceptsGzip(request.headers["accept-encoding"])) return reply.send(answer.text);
        return reply.header("content-encoding", "gzip").send(answer.gzipped());
      }
      if (latest.servedAs === "zip") return reply.send(Buffer.from(zipDefinition(instrument.slug, served)));
      return reply.send(served);
    });
  }
}
