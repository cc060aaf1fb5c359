/**
 * `clinro admin create --email E --name N`: the first administrator of a site's own database
 * (or another one later). The account gets no password: its owner sets one through the
 * activation link mailed to them (SMTP_URL, else an .eml file in DATA_DIR/mail), as an invited
 * user does. Administrators invite the rest of the staff from the portal.
 */
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { UNUSABLE_PASSWORD_HASH } from "../auth/passwords.ts";
import type { DatabaseHandle } from "../db/client.ts";
import { DatabaseInUseError } from "../db/pglite-lock.ts";
import { users } from "../db/schema.ts";
import { sendActivationMail } from "../users/account-mail.ts";
import { ACCOUNT_TOKEN_TTL_S } from "../users/account-tokens.ts";
import { mailFromEnv, type CliMail } from "./cli-mail.ts";
import type { CliOutput } from "./run-cli.ts";

export const ADMIN_USAGE = `  npx clinro admin create --email E --name N

  --email        the administrator's email: their username, where the activation link goes
  --name         their name as it appears in the portal and on what they sign

The account is an administrator (all studies' participants, instruments, exports, and the users)
with no password until its owner follows the activation link.`;

/** A plain address check: the activation mail is the real proof. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NAME_MAX_LENGTH = 100;

type AdminCreate = { email: string; name: string };

function parseAdminCommand(argv: string[]): AdminCreate | string {
  let values: { email?: string; name?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { email: { type: "string" }, name: { type: "string" } },
    }));
  } catch (error) {
    if (error instanceof TypeError) return error.message;
    throw error;
  }
  if (positionals[0] !== "create" || positionals.length > 1) {
    return `Unknown command: admin ${positionals.join(" ") || "(none)"}`;
  }
  const email = values.email?.trim().toLowerCase();
  const name = values.name?.trim();
  if (!email) return "--email is required";
  if (!EMAIL.test(email)) return `--email must be an email address, not "${values.email}"`;
  if (!name) return "--name is required";
  if (name.length > NAME_MAX_LENGTH) return `--name must be at most ${NAME_MAX_LENGTH} characters`;
  return { email, name };
}

export async function runAdminCommand(
  argv: string[],
  output: CliOutput,
  database: { handle?: DatabaseHandle; open: () => Promise<DatabaseHandle> },
  mail?: CliMail,
): Promise<number> {
  const command = parseAdminCommand(argv);
  if (typeof command === "string") {
    output.err(command);
    output.err(`Usage:\n${ADMIN_USAGE}`);
    return 2;
  }
  let handle: DatabaseHandle;
  try {
    handle = database.handle ?? (await database.open());
  } catch (error) {
    if (!(error instanceof DatabaseInUseError)) throw error;
    output.err(`${error.message} Nobody was created.`);
    return 1;
  }
  const mailer = mail ?? mailFromEnv({ info: (_details, message) => output.out(message) });
  try {
    const created = await handle.db.transaction(async (tx) => {
      const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.username, command.email));
      if (taken) return undefined;
      const [row] = await tx
        .insert(users)
        .values({
          username: command.email,
          passwordHash: UNUSABLE_PASSWORD_HASH,
          name: command.name,
          nickname: command.name,
          fname: command.name.split(" ")[0] ?? command.name,
          role: "administrator",
          // 'wu': may edit other users (spec 01).
          scope: ["wu"],
        })
        .onConflictDoNothing()
        .returning({ id: users.id, username: users.username, name: users.name });
      return row;
    });
    if (!created) {
      output.err(`A user with the email ${command.email} already exists; nobody was created.`);
      return 1;
    }
    output.out(`Created administrator ${created.username} (user ${created.id}).`);
    try {
      await sendActivationMail({ db: handle.db, ...mailer }, created);
    } catch (error) {
      output.err(
        `The activation mail to ${created.username} was not sent (${error instanceof Error ? error.message : String(error)}). ` +
          "The account exists: once the mail works, use Forgot password on the sign-in page with this email to set a password.",
      );
      return 1;
    }
    const days = ACCOUNT_TOKEN_TTL_S.activation / (24 * 60 * 60);
    output.out(
      `Activation link mailed to ${created.username}: it is valid for ${days} days and sets the password.`,
    );
    return 0;
  } finally {
    if (!mail) mailer.mailer.close();
    if (!database.handle) await handle.close();
  }
}
