/**
 * What the log keeps of an unexpected error: its class and code, its cause's class and code, and
 * the stack's frames. Never its message: a database error's message holds the SQL text and its
 * parameters (drizzle's "Failed query: ... params: ..."), PostgreSQL's messages and details quote
 * values ('value "..." is out of range', 'Key (username)=(...)'), and those are personal data or
 * secrets. The request's id is on every request log line already (reqId).
 */
export type ErrorSummary = {
  type: string;
  code?: string;
  cause?: { type: string; code?: string };
  /** The stack without its first line (which repeats the message). */
  frames?: string[];
};

const MAX_FRAMES = 12;

function typeOf(error: unknown) {
  if (error instanceof Error) return error.constructor.name || error.name || "Error";
  return typeof error;
}

function codeOf(error: unknown) {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" || typeof code === "number" ? String(code) : undefined;
}

export function errorSummary(error: unknown): ErrorSummary {
  const summary: ErrorSummary = { type: typeOf(error) };
  const code = codeOf(error);
  if (code) summary.code = code;
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause !== undefined) {
    const causeCode = codeOf(cause);
    summary.cause = { type: typeOf(cause), ...(causeCode ? { code: causeCode } : {}) };
  }
  // Only what follows the message: a message may itself hold lines (a parameter's text).
  const head = error instanceof Error ? String(error) : "";
  if (error instanceof Error && typeof error.stack === "string" && error.stack.startsWith(head)) {
    const frames = error.stack
      .slice(head.length)
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line.startsWith("at "))
      .slice(0, MAX_FRAMES);
    if (frames.length > 0) summary.frames = frames;
  }
  return summary;
}
