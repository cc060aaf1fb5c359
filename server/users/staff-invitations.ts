/**
 * Inviting staff, for the API and the `clinro user` command alike: the checks against the
 * database (studies and sites in use, emails without an account), the accounts with their
 * activation links written in one audited transaction, and the mails sent afterwards.
 *
 * All or nothing: a batch (a CSV) with one bad invitation invites nobody.
 */
import type { ErrorBody } from "../../core/contracts/errors.ts";
import { withAuditActor } from "../audit/audit-trail.ts";
import type { Database } from "../db/client.ts";
import { issueActivation, mailActivationLink, type AccountMailDeps } from "./account-mail.ts";
import {
  emailInUseProblem,
  existingAccounts,
  insertInvitedUser,
  isUniqueViolation,
  loadStudyCatalogue,
  studyAccessIssues,
  type StaffInvitation,
} from "./staff-records.ts";

type Issue = NonNullable<ErrorBody["issues"]>[number];

export type InvitedUser = { id: number; username: string; name: string; token: string };

export type InvitationOutcome =
  | { ok: true; invited: InvitedUser[] }
  /** Nothing was written; each issue's path names the field (email, studies.0.site_ids.1). */
  | { ok: false; issues: Issue[] };

/** The problems of one invitation against the database, with paths as its request names them. */
export async function invitationIssues(db: Database, invitation: StaffInvitation): Promise<Issue[]> {
  const issues = studyAccessIssues(await loadStudyCatalogue(db), invitation.studies);
  const inUse = emailInUseProblem((await existingAccounts(db, [invitation.email])).get(invitation.email));
  if (inUse) issues.unshift({ path: "email", message: `${invitation.email} ${inUse}` });
  return issues;
}

/**
 * Makes the accounts (already checked) and their activation links in one transaction audited as
 * `actorId`'s. An email taken meanwhile by a concurrent invitation makes nothing and says so.
 */
export async function createInvitations(
  db: Database,
  actorId: number | null,
  invitations: readonly StaffInvitation[],
): Promise<InvitationOutcome> {
  try {
    const invited = await withAuditActor(db, actorId, async (tx) => {
      const made: InvitedUser[] = [];
      for (const invitation of invitations) {
        const user = await insertInvitedUser(tx, invitation, actorId);
        const { token } = await issueActivation(tx, user.id);
        made.push({ ...user, token });
      }
      return made;
    });
    return { ok: true, invited };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return { ok: false, issues: [{ path: "email", message: "already has an account (invited meanwhile)" }] };
  }
}

/** Checks one invitation and makes it; the caller mails the link (mailInvitations). */
export async function inviteOne(db: Database, actorId: number | null, invitation: StaffInvitation) {
  const issues = await invitationIssues(db, invitation);
  if (issues.length > 0) return { ok: false as const, issues };
  return createInvitations(db, actorId, [invitation]);
}

/** Mails each invited user their activation link; answers the emails whose mail failed. */
export async function mailInvitations(
  mail: Pick<AccountMailDeps, "mailer" | "publicUrl">,
  invited: readonly InvitedUser[],
  onFailure: (user: InvitedUser, error: unknown) => void = () => {},
) {
  const failed: string[] = [];
  for (const user of invited) {
    try {
      await mailActivationLink(mail, user, user.token);
    } catch (error) {
      failed.push(user.username);
      onFailure(user, error);
    }
  }
  return failed;
}
