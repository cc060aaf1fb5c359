/**
 * GET /control/users: every user with where their account stands, for administrators (the
 * management role allowing "users": 'administrator' or the legacy 'edit').
 */
import { listUsersCall } from "../../../core/contracts/calls/user-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { asc } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { MeResponse } from "../../../core/contracts/user.ts";
import { managementRoleAllows } from "../../../core/contracts/management-roles.ts";
import type { UsersResponse } from "../../../core/contracts/users.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { users } from "../../db/schema.ts";
import { HttpError } from "../../http/errors.ts";
import { staffStatuses } from "../../users/staff-records.ts";

export function isUserAdministrator(role: string) {
  return managementRoleAllows(role, "users");
}

export function listUsersRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, listUsersCall, async (request): Promise<UsersResponse> => {
    const { user } = requireSession(request);
    if (!isUserAdministrator(user.role)) {
      throw new HttpError(403, "Only administrators may list users.", "users_forbidden");
    }
    const rows = await ctx.db
      .select({
        id: users.id,
        username: users.username,
        nickname: users.nickname,
        role: users.role,
        lastLogin: users.lastLogin,
        passwordHash: users.passwordHash,
        deactivatedAt: users.deactivatedAt,
      })
      .from(users)
      .orderBy(asc(users.id));
    const statuses = await staffStatuses(ctx.db, rows);
    return {
      users: rows.map((row) => ({
        id: row.id,
        username: row.username,
        nickname: row.nickname,
        role: row.role as MeResponse["role"],
        last_login: row.lastLogin?.toISOString() ?? null,
        ...statuses.get(row.id),
      })),
    };
  });
}
