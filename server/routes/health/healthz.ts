import type { FastifyInstance } from "fastify";
import { healthCall } from "../../../core/contracts/calls/account-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import type { AppContext } from "../../context.ts";
import { isDatabaseReachable } from "../../db/client.ts";
import { DATABASE_RETRY_AFTER_S } from "../../db/database-unavailable.ts";

/** GET /healthz: 200 when the database answers, 503 when it does not. */
export function healthRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, healthCall, async (_request, reply) => {
    const reachable = await isDatabaseReachable(ctx.db);
    if (!reachable) void reply.header("retry-after", String(DATABASE_RETRY_AFTER_S));
    return reply.code(reachable ? 200 : 503).send({ database: reachable ? "up" : "down" });
  });
}
