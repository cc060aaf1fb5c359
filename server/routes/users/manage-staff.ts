/**
 * Staff management by administrators: invitations (one, or a CSV of many), resending them,
 * changing a user's studies, sites and roles, deactivating a user. Who may: the management role
 * allowing "users" (core/contracts/management-roles.ts); anyone else gets a 403, checked before
 * any id is looked at. Nor does anyone change, deactivate, reactivate or re-invite the user who
 * created their account (server/users/own-creator-refusal.ts, the edit call's rule too).
 *
 * - POST /control/users/invitations: the account, its access and its activation link in one
 *   audited transaction (201); the mail is sent after the answer (a slow relay does not hold it).
 * - POST /control/users/invitations/import: a CSV (JSON {csv, dry_run}); everyone or nobody.
 * - GET and PUT /control/users/{userId}/access: the user's management role, studies and sites.
 * - POST /control/users/{userId}/invitation: a new link for a user who never activated (409 for
 *   an active or deactivated one); the earlier link stops working.
 * - POST /control/users/{userId}/deactivate and /reactivate: deactivation bumps the token
 *   version (every token dies at its next request) and retires the open links; reactivation
 *   lets the user sign in with their password again (never revives an old token).
 */
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  deactivateUserCall,
  getStaffAccessCall,
  importStaffCall,
  inviteStaffCall,
  listAssignableStudiesCall,
  reactivateUserCall,
  resendInvitationCall,
  setStaffAccessCall,
} from "../../../core/contracts/calls/staff-calls.ts";
import { managementRoleAllows } from "../../../core/contracts/management-roles.ts";
import type { StaffImportRefusal, StaffMember } from "../../../core/contracts/staff.ts";
import { withAuditActor } from "../../audit/audit-trail.ts";
import { requireSession, type SignedInUser } from "../../auth/authenticate.ts";
import { hasUsablePassword } from "../../auth/passwords.ts";
import type { AppContext } from "../../context.ts";
import { users } from "../../db/schema.ts";
import type { BackgroundTasks } from "../../http/background-tasks.ts";
import { errorSummary } from "../../http/error-summary.ts";
import { HttpError, invalidRequest } from "../../http/errors.ts";
import { registerCall } from "../../http/register-call.ts";
import { issueActivation, type AccountMailDeps } from "../../users/account-mail.ts";
import { retireAccountTokens } from "../../users/account-tokens.ts";
import { refuseActingOnOwnCreator } from "../../users/own-creator-refusal.ts";
import { readStaffCsv } from "../../users/staff-csv.ts";
import {
  createInvitations,
  inviteOne,
  mailInvitations,
  type InvitedUser,
} from "../../users/staff-invitations.ts";
import {
  existingAccounts,
  loadAssignableStudies,
  loadStaffMember,
  loadStudyCatalogue,
  replaceStudyAccess,
  studyAccessIssues,
  userScopeFor,
} from "../../users/staff-records.ts";

/** The signed-in administrator, or a 403 for anyone else. */
export function requireUserAdministrator(request: FastifyRequest): SignedInUser {
  const { user } = requireSession(request);
  if (!managementRoleAllows(user.role, "users")) {
    throw new HttpError(403, "Only administrators may manage users.", "users_forbidden");
  }
  return user;
}

function userNotFound(userId: number) {
  return new HttpError(404, `There is no user ${userId}.`, "user_not_found");
}

export function staffRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  { accountMail, background }: { accountMail: AccountMailDeps; background: BackgroundTasks },
) {
  const staffMember = async (userId: number): Promise<StaffMember> => {
    const member = await loadStaffMember(ctx.db, userId);
    if (!member) throw userNotFound(userId);
    return member;
  };

  /** Mails the links after the answer; a failed mail is logged (the administrator can resend). */
  const mailLater = (request: FastifyRequest, invited: InvitedUser[]) =>
    background.run("staff_invitation", async () => {
      await mailInvitations(accountMail, invited, (user, error) =>
        request.log.error(
          { failure: errorSummary(error), userId: user.id },
          "The invitation mail could not be sent: resend it from the user's page",
        ),
      );
    });

  registerCall(app, listAssignableStudiesCall, async (request) => {
    requireUserAdministrator(request);
    return { studies: await loadAssignableStudies(ctx.db) };
  });

  registerCall(app, inviteStaffCall, async (request, reply) => {
    const admin = requireUserAdministrator(request);
    const body = request.body;
    const outcome = await inviteOne(ctx.db, admin.id, {
      email: body.email,
      name: body.name,
      managementRole: body.management_role,
      studies: body.studies,
    });
    if (!outcome.ok) throw invalidRequest(outcome.issues);
    mailLater(request, outcome.invited);
    return reply.code(201).send(await staffMember(outcome.invited[0]!.id));
  });

  registerCall(app, importStaffCall, async (request, reply) => {
    const admin = requireUserAdministrator(request);
    const { csv, dry_run: dryRun } = request.body;
    const catalogue = await loadStudyCatalogue(ctx.db);
    const read = await readStaffCsv(csv, catalogue, (emails) => existingAccounts(ctx.db, emails));
    if (!read.ok) {
      const refusal: StaffImportRefusal = {
        message: `Invalid request. csv: ${read.fileProblem} Nobody was invited.`,
        code: "invalid_request",
        issues: [{ path: "csv", message: read.fileProblem }],
      };
      return reply.code(400).send(refusal);
    }
    if (read.badRows.length > 0) {
      const refusal: StaffImportRefusal = {
        message: `Invalid request. ${read.badRows.length} bad row${read.badRows.length === 1 ? "" : "s"} (${read.badRows
          .map(
            (row) =>
              `line ${row.line}: ${row.issues.map((issue) => `${issue.field} ${issue.message}`).join(", ")}`,
          )
          .join("; ")}). Nobody was invited.`,
        code: "invalid_request",
        issues: read.badRows.flatMap((row) =>
          row.issues.map((issue) => ({ path: `csv[${row.line}].${issue.field}`, message: issue.message })),
        ),
        bad_rows: read.badRows,
      };
      return reply.code(400).send(refusal);
    }
    let ids: (number | null)[] = read.users.map(() => null);
    if (!dryRun) {
      const made = await createInvitations(
        ctx.db,
        admin.id,
        read.users.map((user) => ({
          email: user.email,
          name: user.name,
          managementRole: user.managementRole,
          studies: user.studies,
        })),
      );
      if (!made.ok)
        throw invalidRequest(made.issues.map((issue) => ({ ...issue, path: `csv.${issue.path}` })));
      ids = made.invited.map((user) => user.id);
      mailLater(request, made.invited);
    }
    return {
      dry_run: dryRun,
      invited: read.users.length,
      users: read.users.map((user, index) => ({
        lines: user.lines,
        email: user.email,
        name: user.name,
        management_role: user.managementRole,
        studies: user.studies,
        id: ids[index] ?? null,
      })),
    };
  });

  registerCall(app, getStaffAccessCall, async (request) => {
    requireUserAdministrator(request);
    return staffMember(request.params.userId);
  });

  registerCall(app, setStaffAccessCall, async (request) => {
    const admin = requireUserAdministrator(request);
    const { userId } = request.params;
    refuseActingOnOwnCreator(admin, userId);
    const body = request.body;
    const [target] = await ctx.db.select().from(users).where(eq(users.id, userId));
    if (!target) throw userNotFound(userId);
    const issues = studyAccessIssues(await loadStudyCatalogue(ctx.db), body.studies);
    if (issues.length > 0) throw invalidRequest(issues);
    // The legacy 'edit' reads as administrator: keeping it is no change.
    const currentRole = target.role === "edit" ? "administrator" : target.role;
    if (target.id === admin.id && body.management_role !== currentRole) {
      throw new HttpError(403, "You may not change your own role.", "users_edit_own_role");
    }
    await withAuditActor(ctx.db, admin.id, async (tx) => {
      if (body.management_role !== currentRole) {
        await tx
          .update(users)
          .set({
            role: body.management_role,
            scope: [...target.scope.filter((code) => code !== "wu"), ...userScopeFor(body.management_role)],
          })
          .where(eq(users.id, userId));
      }
      await replaceStudyAccess(tx, userId, body.studies);
    });
    return staffMember(userId);
  });

  registerCall(app, resendInvitationCall, async (request) => {
    const admin = requireUserAdministrator(request);
    const { userId } = request.params;
    refuseActingOnOwnCreator(admin, userId);
    const [target] = await ctx.db.select().from(users).where(eq(users.id, userId));
    if (!target) throw userNotFound(userId);
    if (target.deactivatedAt) {
      throw new HttpError(409, "This user is deactivated: reactivate them first.", "user_deactivated");
    }
    if (hasUsablePassword(target.passwordHash)) {
      throw new HttpError(
        409,
        "This user has already activated their account: they can use 'Forgot password' on the sign-in page.",
        "user_active",
      );
    }
    const { token } = await withAuditActor(ctx.db, admin.id, (tx) => issueActivation(tx, userId));
    mailLater(request, [{ id: target.id, username: target.username, name: target.name, token }]);
    return staffMember(userId);
  });

  registerCall(app, deactivateUserCall, async (request) => {
    const admin = requireUserAdministrator(request);
    const { userId } = request.params;
    if (userId === admin.id) {
      throw new HttpError(403, "You may not deactivate your own account.", "users_deactivate_self");
    }
    refuseActingOnOwnCreator(admin, userId);
    const [target] = await ctx.db
      .select({ deactivatedAt: users.deactivatedAt })
      .from(users)
      .where(eq(users.id, userId));
    if (!target) throw userNotFound(userId);
    // Deactivating a deactivated user changes nothing and answers the same.
    if (!target.deactivatedAt) {
      await withAuditActor(ctx.db, admin.id, async (tx) => {
        await tx
          .update(users)
          .set({ deactivatedAt: new Date(), tokenVersion: sql`${users.tokenVersion} + 1` })
          .where(eq(users.id, userId));
        await retireAccountTokens(tx, userId);
      });
    }
    return staffMember(userId);
  });

  registerCall(app, reactivateUserCall, async (request) => {
    const admin = requireUserAdministrator(request);
    const { userId } = request.params;
    refuseActingOnOwnCreator(admin, userId);
    const [target] = await ctx.db
      .select({ deactivatedAt: users.deactivatedAt })
      .from(users)
      .where(eq(users.id, userId));
    if (!target) throw userNotFound(userId);
    if (target.deactivatedAt) {
      await withAuditActor(ctx.db, admin.id, (tx) =>
        tx.update(users).set({ deactivatedAt: null }).where(eq(users.id, userId)),
      );
    }
    return staffMember(userId);
  });
}
