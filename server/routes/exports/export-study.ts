/**
 * GET /control/studies/{studyId}/export?format=csv|odm|fhir (core/contracts/study-export.ts):
 * the study's collected data, streamed as it is read (server/study-export/), so that memory
 * stays flat however large the study.
 *
 * Who may, and which sites the export holds: server/study-export/export-access.ts (an
 * administrator the whole study; anyone else only with the export right given in the study, and
 * only the sites they hold there). A refusal is a 403, the same whether the study exists or not.
 * Then, in this order: a format not registered (server/study-export/export-formats.ts) or a site
 * or instrument filter naming something outside the study is a 400 naming the field; a site of
 * the study the caller may not export is a 403; nothing is recorded for any of them. Otherwise
 * the export is written to the audit trail, with the sites it holds, and streamed as an
 * attachment.
 */
import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { exportStudyCall } from "../../../core/contracts/calls/export-calls.ts";
import { exportScopeOf } from "../../../core/contracts/study-export.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { errorSummary } from "../../http/error-summary.ts";
import { invalidRequest } from "../../http/errors.ts";
import { registerCall } from "../../http/register-call.ts";
import { exportableSites, sitesToExport } from "../../study-export/export-access.ts";
import { recordStudyExport } from "../../study-export/export-audit.ts";
import {
  ExportFormatUnavailable,
  exportBytes,
  exportFileName,
  exportWriter,
  type ExportOptions,
  type ExportWriter,
} from "../../study-export/export-formats.ts";
import type { ExportScope } from "../../study-export/export-source.ts";
import { exportScopeIssues, readExportSource } from "../../study-export/read-export-source.ts";

export function exportRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, exportStudyCall, async (request, reply) => {
    const { user } = requireSession(request);
    const { studyId } = request.params;
    const query = request.query;
    const allowed = await exportableSites(ctx.db, user, studyId);
    let writer: ExportWriter;
    try {
      writer = exportWriter(query.format);
    } catch (error) {
      if (!(error instanceof ExportFormatUnavailable)) throw error;
      throw invalidRequest([{ path: "format", message: error.message }]);
    }
    if (query.layout !== undefined && query.format !== "fhir") {
      throw invalidRequest([{ path: "layout", message: "applies to format fhir only" }]);
    }
    const asked: ExportScope = exportScopeOf(studyId, query);
    if (asked.from && asked.to && asked.from >= asked.to) {
      throw invalidRequest([{ path: "to", message: "must be after from" }]);
    }
    const issues = await exportScopeIssues(ctx.db, asked);
    if (issues.length > 0) throw invalidRequest(issues);
    const requestedSiteIds = asked.siteIds ?? [];
    const scope: ExportScope = {
      ...asked,
      siteIds: await sitesToExport(ctx.db, studyId, allowed, requestedSiteIds),
    };

    const options: ExportOptions = { layout: query.layout ?? "bundle", publicUrl: ctx.publicUrl };
    const source = await readExportSource(ctx.db, scope);
    await recordStudyExport(ctx.db, {
      actorUserId: user.id,
      via: "api",
      format: query.format,
      layout: query.format === "fhir" ? options.layout : undefined,
      scope,
      requestedSiteIds,
    });
    const file = writer.file(options);
    const body = Readable.from(exportBytes(writer.write(source, options)));
    // Headers are gone once the first byte is: a failure half-way can only cut the answer short.
    body.on("error", (error) =>
      request.log.error({ failure: errorSummary(error), studyId }, "The study export failed while streaming"),
    );
    return reply
      .header("content-type", file.contentType)
      .header("content-disposition", `attachment; filename="${exportFileName(studyId, file)}"`)
      .header("cache-control", "no-store")
      .send(body);
  });
}
