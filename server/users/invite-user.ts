/**
 * A new user made by an administrator: the account has no usable password until its owner
 * follows the activation link mailed to the username.
 */
import { eq } from "drizzle-orm";
import { CLINICIAN_STUDY_SCOPE } from "../../core/contracts/study-rights.ts";
import { UNUSABLE_PASSWORD_HASH } from "../auth/passwords.ts";
import type { Database } from "../db/client.ts";
import { sitePermissions, sites, studyPermissions, users } from "../db/schema.ts";
import { sendActivationMail, type AccountMailDeps } from "./account-mail.ts";

export type NewUser = {
  /** The login email. */
  username: string;
  name: string;
  role?: "enroller" | "researcher" | "studyManager" | "administrator";
  createdBy?: number;
  /** Clinician role per study id; the user may work in every site of those studies. */
  studies?: Record<number, string>;
  studyScope?: string[];
};

export async function createInvitedUser(db: Database, user: NewUser) {
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(users)
      .values({
        username: user.username.trim().toLowerCase(),
        passwordHash: UNUSABLE_PASSWORD_HASH,
        name: user.name,
        nickname: user.name,
        fname: user.name.split(" ")[0] ?? user.name,
        role: user.role ?? "researcher",
        createdBy: user.createdBy ?? null,
      })
      .returning({ id: users.id, username: users.username, name: users.name });
    if (!created) throw new Error("The user was not created");
    for (const [studyId, role] of Object.entries(user.studies ?? {})) {
      await tx.insert(studyPermissions).values({
        userId: created.id,
        studyId: Number(studyId),
        role,
        scope: user.studyScope ?? [...CLINICIAN_STUDY_SCOPE],
      });
      const studySites = await tx
        .select({ id: sites.id })
        .from(sites)
        .where(eq(sites.studyId, Number(studyId)));
      if (studySites.length > 0) {
        await tx
          .insert(sitePermissions)
          .values(studySites.map((site) => ({ userId: created.id, siteId: site.id })));
      }
    }
    return created;
  });
}

/** Makes the user and mails the activation link. */
export async function inviteUser(deps: AccountMailDeps, user: NewUser) {
  const created = await createInvitedUser(deps.db, user);
  await sendActivationMail(deps, created);
  return created;
}
