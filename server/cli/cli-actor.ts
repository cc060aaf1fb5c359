/**
 * Who a `clinro` command's writes are made by, as the audit trail records them: the operator of
 * the shell, `cli:<os user>@<host>` (details.actor_label of every audit row the command writes,
 * migration 0021), and, with `--as EMAIL`, the active portal user it names (actor_user_id).
 * Both are session settings of the command's database connections: clinro.actor_label, and the
 * session's default clinro.actor_id, which a transaction's own actor (withAuditActor) overrides.
 */
import os from "node:os";
import { eq, sql } from "drizzle-orm";
import type { DatabaseHandle, SessionSettings } from "../db/client.ts";
import { users } from "../db/schema.ts";

export const ACTOR_USAGE = `  --as EMAIL     (any command) the active portal user the command's writes are made for: the
                 audit trail records them as that user's, besides the operator cli:<os user>@<host>`;

/** The operator of the shell running the command. */
export function cliActorLabel(): string {
  let user: string;
  try {
    user = os.userInfo().username;
  } catch {
    // A uid without a passwd entry (a container): its number still says who it was.
    user = `uid${process.getuid?.() ?? "-unknown"}`;
  }
  return `cli:${user}@${os.hostname()}`;
}

export class ActorUsageError extends Error {}

/** Takes `--as EMAIL` (or `--as=EMAIL`) out of the command line, wherever it stands. */
export function takeActorFlag(argv: string[]): { argv: string[]; asEmail: string | undefined } {
  const rest: string[] = [];
  let asEmail: string | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    let value: string | undefined;
    if (arg === "--as") {
      value = argv[index + 1];
      if (value === undefined || value.startsWith("--")) {
        throw new ActorUsageError("--as needs the email of a portal user");
      }
      index += 1;
    } else if (arg.startsWith("--as=")) {
      value = arg.slice("--as=".length);
    } else {
      rest.push(arg);
      continue;
    }
    if (asEmail !== undefined) throw new ActorUsageError("--as can be given once");
    if (value.trim() === "") throw new ActorUsageError("--as needs the email of a portal user");
    asEmail = value.trim();
  }
  return { argv: rest, asEmail };
}

/**
 * The active user `--as` names, or the reason it is refused. Usernames are stored lower-cased
 * (schema.ts), so the email is matched case-insensitively like a sign-in.
 */
export async function findActingUser(
  handle: DatabaseHandle,
  email: string,
): Promise<{ userId: number } | { refused: string }> {
  const [user] = await handle.db
    .select({ id: users.id, deactivatedAt: users.deactivatedAt })
    .from(users)
    .where(eq(users.username, sql`lower(${email})`));
  if (!user) return { refused: `--as ${email}: no portal user has this email; nothing was changed.` };
  if (user.deactivatedAt) {
    return { refused: `--as ${email}: this user is deactivated; nothing was changed.` };
  }
  return { userId: user.id };
}

export function cliSessionSettings(actorUserId: number | undefined): SessionSettings {
  return {
    "clinro.actor_label": cliActorLabel(),
    ...(actorUserId === undefined ? {} : { "clinro.actor_id": String(actorUserId) }),
  };
}
