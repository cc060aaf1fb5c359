/**
 * `clinro audit verify` and `clinro audit export FILE` (see run-cli.ts for the rest).
 *
 *   verify   walks the hash chain: "audit chain intact: N rows" and exit 0, or the first broken
 *            link and exit 1
 *   export   writes the audit trail as CSV (RFC 4180) to FILE, which must not exist yet
 */
import { exportAuditCsv, verifyAuditChain } from "../audit/audit-chain.ts";
import type { DatabaseHandle } from "../db/client.ts";

type Output = { out: (line: string) => void; err: (line: string) => void };

export const AUDIT_USAGE = `  npm run clinro -- audit verify
  npm run clinro -- audit export FILE

  audit verify   checks the audit trail's hash chain; exit 1 at the first broken link
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
    output.out(`audit chain intact: ${report.rows} rows`);
    if (report.rows > 0) output.out(`last hash: ${report.lastHash}`);
    return 0;
  }
  try {
    const rows = await exportAuditCsv(handle.db, command.file);
    output.out(`${rows} audit rows written to ${command.file}`);
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
