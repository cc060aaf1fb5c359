/**
 * `clinro user ...`: staff management from the command line, as an administrator does it in the
 * portal (server/users/staff-invitations.ts): invite one user, import a staff CSV
 * (docs/staff-import.md), resend an invitation, deactivate or reactivate a user. Activation links
 * go out with the server's mail settings (SMTP_URL, else an .eml file in DATA_DIR/mail). The
 * audit trail records the command's writes with no actor (the system).
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { eq, sql } from "drizzle-orm";
import {
  DEFAULT_MANAGEMENT_ROLE,
  STAFF_INVITATION_DAYS,
  STAFF_STUDY_ROLE_NAMES,
  STAFF_STUDY_ROLES,
  staffEmail,
  staffName,
  type StaffStudyAccess,
} from "../../core/contracts/staff.ts";
import { assignableRole } from "../../core/contracts/user-edit.ts";
import { safeParse } from "zod/v4/core";
import { hasUsablePassword } from "../auth/passwords.ts";
import type { DatabaseHandle } from "../db/client.ts";
import { DatabaseInUseError } from "../db/pglite-lock.ts";
import { users } from "../db/schema.ts";
import { issueActivation } from "../users/account-mail.ts";
import { retireAccountTokens } from "../users/account-tokens.ts";
import { parseSiteIds, parseStudyRole, readStaffCsv } from "../users/staff-csv.ts";
import {
  createInvitations,
  inviteOne,
  mailInvitations,
  type InvitedUser,
} from "../users/staff-invitations.ts";
import { existingAccounts, loadStudyCatalogue } from "../users/staff-records.ts";
import { mailFromEnv, type CliMail } from "./cli-mail.ts";
import type { CliOutput } from "./run-cli.ts";

const ROLES_TEXT = STAFF_STUDY_ROLES.map((code) =>
  code === STAFF_STUDY_ROLE_NAMES[code] ? `"${code}"` : `${code} (${STAFF_STUDY_ROLE_NAMES[code]})`,
).join(", ");

export const USER_USAGE = `  npx clinro user invite --email E --name N --study ID --role R --sites 1011,1012 [--study ID --role R --sites ...] [--management-role M] [--export ID]...
  npx clinro user import FILE [--dry-run]
  npx clinro user resend --email E
  npx clinro user deactivate --email E | user reactivate --email E

  invite         makes the account and mails its activation link (valid ${STAFF_INVITATION_DAYS} days)
  --study, --role, --sites
                 one group per study, in that order: the study id, the role there (${ROLES_TEXT})
                 and the ids of the study's sites they work in
  --management-role
                 enroller, researcher, studyManager or administrator (default ${DEFAULT_MANAGEMENT_ROLE})
  --export       a study of the groups whose data they may export, of their sites there
                 (repeat it for several); without it they export nothing
  import         a staff CSV (docs/staff-import.md): everyone, or nobody when any row is bad
                 (every bad row is named); --dry-run checks it and invites nobody
  resend         a new activation link for a user who has not activated; the old one stops working
  deactivate     their sessions end at their next request and they cannot sign in; their
                 signatures and audit rows stay. reactivate lets them sign in again.`;

class UsageError extends Error {}

type UserCommand =
  | {
      action: "invite";
      email: string;
      name: string;
      managementRole: (typeof assignableRole.options)[number];
      studies: StaffStudyAccess[];
    }
  | { action: "import"; file: string; dryRun: boolean }
  | { action: "resend" | "deactivate" | "reactivate"; email: string };

function parseEmail(value: string | undefined) {
  if (value === undefined) throw new UsageError("--email is required");
  const parsed = safeParse(staffEmail, value);
  if (!parsed.success) throw new UsageError(`--email must be an email address, not "${value}"`);
  return parsed.data;
}

function parseStudies(
  studies: string[],
  roles: string[],
  siteLists: string[],
  exports: string[],
): StaffStudyAccess[] {
  if (studies.length === 0)
    throw new UsageError("--study, --role and --sites are required (one group per study)");
  if (roles.length !== studies.length || siteLists.length !== studies.length) {
    throw new UsageError("give --study, --role and --sites once for each study, in groups");
  }
  const stray = exports.filter((study) => !studies.includes(study));
  if (stray.length > 0)
    throw new UsageError(`--export names a study not given with --study: ${stray.join(", ")}`);
  return studies.map((studyText, index) => {
    const studyId = Number(studyText);
    if (!/^\d{1,10}$/.test(studyText) || studyId < 1 || studyId > 2_147_483_647) {
      throw new UsageError(`--study must be a study id (a positive whole number), not "${studyText}"`);
    }
    const role = parseStudyRole(roles[index]!);
    if (!role) throw new UsageError(`--role must be one of ${ROLES_TEXT}; not "${roles[index]}"`);
    const siteIds = parseSiteIds(siteLists[index]!);
    if (typeof siteIds === "string") throw new UsageError(`--sites: ${siteIds}`);
    return { study_id: studyId, role, site_ids: siteIds, may_export: exports.includes(studyText) };
  });
}

export function parseUserCommand(argv: string[]): UserCommand {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      email: { type: "string" },
      name: { type: "string" },
      study: { type: "string", multiple: true },
      role: { type: "string", multiple: true },
      sites: { type: "string", multiple: true },
      "management-role": { type: "string" },
      export: { type: "string", multiple: true },
      "dry-run": { type: "boolean" },
    },
  });
  const [action, ...rest] = positionals;
  if (action === "import") {
    const [file, ...extra] = rest;
    if (file === undefined) throw new UsageError("FILE is required");
    if (extra.length > 0) throw new UsageError(`Unexpected arguments: ${extra.join(" ")}`);
    return { action, file, dryRun: values["dry-run"] ?? false };
  }
  if (rest.length > 0) throw new UsageError(`Unexpected arguments: ${rest.join(" ")}`);
  if (action === "resend" || action === "deactivate" || action === "reactivate") {
    return { action, email: parseEmail(values.email) };
  }
  if (action !== "invite") throw new UsageError(`Unknown command: user ${positionals.join(" ") || "(none)"}`);
  const email = parseEmail(values.email);
  const name = safeParse(staffName, values.name ?? "");
  if (!name.success) throw new UsageError(`--name: ${name.error.issues[0]?.message ?? "is required"}`);
  const management = safeParse(assignableRole, values["management-role"] ?? DEFAULT_MANAGEMENT_ROLE);
  if (!management.success) {
    throw new UsageError(`--management-role must be one of ${assignableRole.options.join(", ")}`);
  }
  return {
    action,
    email,
    name: name.data,
    managementRole: management.data,
    studies: parseStudies(values.study ?? [], values.role ?? [], values.sites ?? [], values.export ?? []),
  };
}

/** The flag a request's field path is given by, for the invite's messages. */
function flagOf(path: string) {
  const match = /^studies\.(\d+)\.(study_id|site_ids)/.exec(path);
  if (!match) return `--${path}`;
  return `${match[2] === "study_id" ? "--study" : "--sites"} (study group ${Number(match[1]) + 1})`;
}

async function sendLinks(invited: InvitedUser[], mail: CliMail, output: CliOutput) {
  const failed = await mailInvitations(mail, invited, (user, error) =>
    output.err(
      `The activation mail to ${user.username} was not sent (${error instanceof Error ? error.message : String(error)}): once the mail works, run: npx clinro user resend --email ${user.username}`,
    ),
  );
  for (const user of invited) {
    if (!failed.includes(user.username)) {
      output.out(`Activation link mailed to ${user.username} (valid ${STAFF_INVITATION_DAYS} days).`);
    }
  }
  return failed.length === 0 ? 0 : 1;
}

async function run(command: UserCommand, handle: DatabaseHandle, output: CliOutput, mail: () => CliMail) {
  const db = handle.db;
  if (command.action === "invite") {
    const outcome = await inviteOne(db, null, {
      email: command.email,
      name: command.name,
      managementRole: command.managementRole,
      studies: command.studies,
    });
    if (!outcome.ok) {
      output.err(`Nobody was invited:`);
      for (const issue of outcome.issues) output.err(`  ${flagOf(issue.path)}: ${issue.message}`);
      return 1;
    }
    const user = outcome.invited[0]!;
    output.out(`Invited ${user.username} (user ${user.id}).`);
    return sendLinks(outcome.invited, mail(), output);
  }

  if (command.action === "import") {
    let text: string;
    try {
      text = await readFile(command.file, "utf8");
    } catch (error) {
      output.err(`Cannot read ${command.file}: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    }
    const read = await readStaffCsv(text, await loadStudyCatalogue(db), (emails) =>
      existingAccounts(db, emails),
    );
    if (!read.ok) {
      output.err(`${command.file}: ${read.fileProblem} Nobody was invited.`);
      return 1;
    }
    if (read.badRows.length > 0) {
      output.err(
        `${command.file} has ${read.badRows.length} bad row${read.badRows.length === 1 ? "" : "s"}; nobody was invited:`,
      );
      for (const row of read.badRows) {
        output.err(
          `  line ${row.line} (${row.email || "no email"}): ${row.issues.map((issue) => `${issue.field} ${issue.message}`).join("; ")}`,
        );
      }
      return 1;
    }
    for (const user of read.users) {
      output.out(
        `${command.dryRun ? "Would invite" : "Inviting"} ${user.email} (${user.name}, ${user.managementRole}): ${user.studies
          .map(
            (study) =>
              `study ${study.study_id} as ${STAFF_STUDY_ROLE_NAMES[study.role as keyof typeof STAFF_STUDY_ROLE_NAMES] ?? study.role} at sites ${study.site_ids.join(", ")}`,
          )
          .join("; ")}`,
      );
    }
    if (command.dryRun) {
      output.out(
        `Dry run: ${read.users.length} user${read.users.length === 1 ? "" : "s"} would be invited; nobody was.`,
      );
      return 0;
    }
    const made = await createInvitations(
      db,
      null,
      read.users.map((user) => ({
        email: user.email,
        name: user.name,
        managementRole: user.managementRole,
        studies: user.studies,
      })),
    );
    if (!made.ok) {
      output.err(
        `Nobody was invited: ${made.issues.map((issue) => `${issue.path} ${issue.message}`).join("; ")}`,
      );
      return 1;
    }
    output.out(`Invited ${made.invited.length} user${made.invited.length === 1 ? "" : "s"}.`);
    return sendLinks(made.invited, mail(), output);
  }

  const [user] = await db.select().from(users).where(eq(users.username, command.email));
  if (!user) {
    output.err(`There is no user ${command.email}.`);
    return 1;
  }
  if (command.action === "resend") {
    if (user.deactivatedAt) {
      output.err(
        `${user.username} is deactivated: reactivate them first (user reactivate --email ${user.username}).`,
      );
      return 1;
    }
    if (hasUsablePassword(user.passwordHash)) {
      output.err(
        `${user.username} has already activated their account: they can use Forgot password on the sign-in page.`,
      );
      return 1;
    }
    const { token } = await db.transaction((tx) => issueActivation(tx, user.id));
    return sendLinks([{ id: user.id, username: user.username, name: user.name, token }], mail(), output);
  }
  if (command.action === "deactivate") {
    if (user.deactivatedAt) {
      output.out(`${user.username} is already deactivated: no changes.`);
      return 0;
    }
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ deactivatedAt: new Date(), tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, user.id));
      await retireAccountTokens(tx, user.id);
    });
    output.out(`Deactivated ${user.username}: their sessions end at their next request.`);
    return 0;
  }
  if (!user.deactivatedAt) {
    output.out(`${user.username} is not deactivated: no changes.`);
    return 0;
  }
  await db.transaction((tx) => tx.update(users).set({ deactivatedAt: null }).where(eq(users.id, user.id)));
  output.out(
    hasUsablePassword(user.passwordHash)
      ? `Reactivated ${user.username}: they sign in with their password again.`
      : `Reactivated ${user.username}: they never activated their account; run user resend --email ${user.username}.`,
  );
  return 0;
}

export async function runUserCommand(
  argv: string[],
  output: CliOutput,
  database: { handle?: DatabaseHandle; open: () => Promise<DatabaseHandle> },
  mail?: CliMail,
): Promise<number> {
  let command: UserCommand;
  try {
    command = parseUserCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof TypeError)) throw error;
    output.err(error.message);
    output.err(`Usage:\n${USER_USAGE}`);
    return 2;
  }
  let handle: DatabaseHandle;
  try {
    handle = database.handle ?? (await database.open());
  } catch (error) {
    if (!(error instanceof DatabaseInUseError)) throw error;
    output.err(`${error.message} Nothing was changed.`);
    return 1;
  }
  let envMail: CliMail | undefined;
  try {
    return await run(command, handle, output, () => mail ?? (envMail ??= mailFromEnv()));
  } finally {
    envMail?.mailer.close();
    if (!database.handle) await handle.close();
  }
}
