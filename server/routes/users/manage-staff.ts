/**
 * Staff management by administrators: invitations (one, or a CSV of many), resending them,
 * changing a user's studies, sites and roles, deactivating a user.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import type { AccountMailDeps } from "../../users/account-mail.ts";
import type { BackgroundTasks } from "../../http/background-tasks.ts";

export function staffRoutes(
  _app: FastifyInstance,
  _ctx: AppContext,
  _deps: { accountMail: AccountMailDeps; background: BackgroundTasks },
) {}
