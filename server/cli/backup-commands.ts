/**
 * `clinro backup FILE` and `clinro restore FILE` (server/backup/backup.ts says what they do).
 */
import { BackupError, restoreBackup, writeBackup } from "../backup/backup.ts";
import type { DatabaseHandle } from "../db/client.ts";

type Output = { out: (line: string) => void; err: (line: string) => void };

export const BACKUP_USAGE = `  npx clinro backup FILE
  npx clinro restore FILE

  backup    writes the whole database, uploaded files included, to FILE (gzip'ed; must not
            exist yet; readable by its owner only). On PostgreSQL it may run while the servers
            do; on the embedded database stop the server first.
  restore   loads FILE into an empty database (DATABASE_URL, else DATA_DIR); refuses one that
            holds any row, and changes nothing unless every row and file is restored.`;

export type BackupCommand = { action: "backup" | "restore"; file: string };

export class BackupUsageError extends Error {}

export function parseBackupCommand(positionals: string[]): BackupCommand {
  const [action, file, ...rest] = positionals;
  if (action !== "backup" && action !== "restore") throw new BackupUsageError(`Unknown command: ${action}`);
  if (file === undefined) throw new BackupUsageError("FILE is required");
  if (rest.length > 0) throw new BackupUsageError(`Unexpected arguments: ${rest.join(" ")}`);
  return { action, file };
}

export async function runBackupCommand(
  command: BackupCommand,
  handle: DatabaseHandle,
  output: Output,
): Promise<number> {
  try {
    if (command.action === "backup") {
      const summary = await writeBackup(handle, command.file);
      output.out(
        `Backed up ${summary.rows} rows of ${summary.tables} tables (${handle.kind}) to ${command.file}.`,
      );
      output.out(
        `Audit head checkpointed: row ${summary.auditHead.lastId}, hash ${summary.auditHead.lastHash}.`,
      );
      return 0;
    }
    const summary = await restoreBackup(handle, command.file);
    output.out(
      `Restored ${summary.rows} rows of ${summary.tables} tables from ${command.file} ` +
        `(made ${summary.createdAt} on ${summary.engine}) into ${handle.kind}.`,
    );
    output.out("Check it with: npx clinro audit verify");
    return 0;
  } catch (error) {
    if (error instanceof BackupError) {
      output.err(error.message);
      return 1;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") {
      output.err(`${command.file} already exists; nothing was written.`);
      return 1;
    }
    if (typeof code === "string" && (error as NodeJS.ErrnoException).syscall) {
      output.err(
        `Cannot ${command.action === "backup" ? "write" : "read"} ${command.file}: ${(error as Error).message}`,
      );
      return 1;
    }
    throw error;
  }
}
