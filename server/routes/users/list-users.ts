/**
 * GET /control/users: every user with where their account stands and their role in each study, for administrators (the
 * management role allowing "users": 'administrator' or the legacy 'edit').
 */
import { listUsersCall } from "../../../core/contracts/calls/user-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { asc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { MeResponse } from "../../../core/contracts/user.ts";
import { managementRoleAllows } from "../../../core/contracts/management-roles.ts";
import type { UsersResponse } from "../../../core/contracts/users.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { studies, studyPermissions, users } from "../../db/schema.ts";
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
    // Each user's role in each study, which the list shows in a coordinator's words.
    const roleRows = await ctx.db
      .select({
        userId: studyPermissions.userId,
        studyId: studyPermissions.studyId,
        studyName: studies.name,
        role: studyPermissions.role,
      })
      .from(studyPermissions)
      .innerJoin(studies, eq(studies.id, studyPermissions.studyId));
    // Ordered here, not by the database's collation, so both databases answer the same order.
    roleRows.sort((a, b) =>
      a.studyName < b.studyName ? -1 : a.studyName > b.studyName ? 1 : a.studyId - b.studyId,
    );
    const studyRoles = new Map<number, UsersResponse["users"][number]["study_roles"] & object>();
    for (const row of roleRows) {
      const list = studyRoles.get(row.userId) ?? [];
      list.push({ study_id: row.studyId, study_name: row.studyName, role: row.role });
      studyRoles.set(row.userId, list);
    }
    return {
      users: rows.map((row) => ({
        id: row.id,
        username: row.username,
        nickname: row.nickname,
        role: row.role as MeResponse["role"],
        last_login: row.lastLogin?.toISOString() ?? null,
        ...statuses.get(row.id),
        study_roles: studyRoles.get(row.id) ?? [],
      })),
    };
  });
}
