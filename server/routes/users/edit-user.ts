/**
 * PATCH /control/users/{userId}: editing a user (spec 01 section 4, "Editing users"). Anyone may
 * change their own nickname; changing another user needs the user scope 'wu' and a target who is
 * not the editor's own creator (core/contracts/user-edit.ts, editRefusal; the staff-access calls
 * refuse the creator with the same 403, server/users/own-creator-refusal.ts). Nobody changes their own
 * role. Every change is audited as made by the editor.
 */
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { editUserCall } from "../../../core/contracts/calls/user-edit-calls.ts";
import type { MeResponse } from "../../../core/contracts/user.ts";
import { editRefusal } from "../../../core/contracts/user-edit.ts";
import type { UserListItem } from "../../../core/contracts/users.ts";
import { withAuditActor } from "../../audit/audit-trail.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { users } from "../../db/schema.ts";
import { HttpError } from "../../http/errors.ts";
import { registerCall } from "../../http/register-call.ts";
import { ownCreatorRefusal } from "../../users/own-creator-refusal.ts";

export function editUserRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, editUserCall, async (request): Promise<UserListItem> => {
    const { user: editor } = requireSession(request);
    const { userId } = request.params;
    const changes = request.body;
    // The permission first, from the editor alone: a refused editor learns nothing about the id.
    const refusal = editRefusal({ id: editor.id, scope: editor.scope, created_by: editor.createdBy }, userId);
    if (refusal === "no_scope")
      throw new HttpError(403, "You may not edit other users.", "users_edit_forbidden");
    if (refusal === "creator") throw ownCreatorRefusal();
    const [target] = await ctx.db.select().from(users).where(eq(users.id, userId));
    if (!target) throw new HttpError(404, `There is no user ${userId}.`, "user_not_found");
    if (target.id === editor.id && changes.role !== undefined && changes.role !== target.role) {
      throw new HttpError(403, "You may not change your own role.", "users_edit_own_role");
    }
    const set: Partial<typeof users.$inferInsert> = {};
    if (changes.nickname !== undefined) set.nickname = changes.nickname;
    if (changes.role !== undefined) set.role = changes.role;
    const [updated] = await withAuditActor(ctx.db, editor.id, (tx) =>
      tx.update(users).set(set).where(eq(users.id, userId)).returning(),
    );
    const row = updated ?? target;
    return {
      id: row.id,
      username: row.username,
      nickname: row.nickname,
      role: row.role as MeResponse["role"],
      last_login: row.lastLogin?.toISOString() ?? null,
    };
  });
}
