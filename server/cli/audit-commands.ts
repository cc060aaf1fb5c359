/**
 * `clinro audit verify` and `clinro audit export FILE` (see run-cli.ts for the rest).
 *
 *   verify   walks the hash chain and compares it with the checkpoints of its head
 *            (audit-checkpoints.ts): "audit chain intact: N rows" and exit 0 (and a new
 *            checkpoint), or the first broken link or the missing tail and exit 1
 *   export   writes the audit trail as CSV (RFC 4180) to FILE, which must not exist yet, after
 *            checkpointing its head, which it prints
 */
import { findCutTail, recordAuditCheckpoint } from "../audit/audit-checkpoints.ts";
import { exportAuditCsv, verifyAuditChain } from "../audit/audit-chain.ts";
import type { DatabaseHandle } from "../db/client.ts";

type Output = { out: (line: string) => void; err: (line: string) => void };

export const AUDIT_USAGE = `  npx clinro audit verify
  npx clinro audit export FILE

  audit verify   checks the audit trail's hash chain and that no checkpointed row is gone;
                 exit 1 at the first broken link or a missing tail
  audit export   writes the audit trail as CSV to FILE (which must not exist yet)`;

export class AuditUsageError extends Error {}

export type AuditCommand = { action: "verify" } | { action: "export"; file: string };

export function parseAuditCommand(positionals: string[]): AuditCommand {
  const [action, file, ...rest] = positionals;
  if (action === "verify") {
    if (file !== undefined) throw new AuditUsageError(`Unexpected arguments: ${[file, ...rest].join(" ")}`);
    return { action };
  }
  if (action === "export") {
    if (file === undefined) throw new AuditUsageError("FILE is required");
    if (rest.length > 0) throw new AuditUsageError(`Unexpected arguments: ${rest.join(" ")}`);
    return { action, file };
  }
  throw new AuditUsageError(`Unknown command: audit ${positionals.join(" ")}`.trimEnd());
}

export async function runAuditCommand(
  command: AuditCommand,
  handle: DatabaseHandle,
  output: Output,
): Promise<number> {
  if (command.action === "verify") {
    const report = await verifyAuditChain(handle.db);
    if (report.broken) {
      output.err(`audit chain broken at row ${report.broken.id}: ${report.broken.reason}`);
      output.err(`${report.rows} rows before it verify.`);
      return 1;
    }
    const cut = await findCutTail(handle.db, report.rows);
    if (cut) {
      output.err(`audit chain broken: ${cut.reason}`);
      output.err(`${report.rows} rows verify, but the trail once held more.`);
      return 1;
    }
    await recordAuditCheckpoint(handle.db, "audit verify");
    output.out(`audit chain intact: ${report.rows} rows`);
    if (report.rows > 0) output.out(`last hash: ${report.lastHash}`);
    return 0;
  }
  try {
    const head = await recordAuditCheckpoint(handle.db, "audit export");
    const rows = await exportAuditCsv(handle.db, command.file);
    output.out(`${rows} audit rows written to ${command.file}`);
    output.out(
      `audit head checkpointed: row ${head.lastId}, hash ${head.lastHash} (keep it apart from the file)`,
    );
    return 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      output.err(`${command.file} already exists; nothing was written.`);
      return 1;
    }
    if (
      typeof (error as NodeJS.ErrnoException).code === "string" &&
      (error as NodeJS.ErrnoException).syscall
    ) {
      output.err(`Cannot write ${command.file}: ${(error as Error).message}`);
      return 1;
    }
    throw error;
  }
}
