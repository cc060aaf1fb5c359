/**
 * HTTP errors with the API's error body ({ message, code, issues }), and zod parsing that turns
 * bad input into a 400 naming each wrong field.
 */
import { safeParse, type $ZodType, type output } from "zod/v4/core";
import "../../core/contracts/zod-messages.ts";
import type { ErrorBody } from "../../core/contracts/errors.ts";

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
    readonly issues?: ErrorBody["issues"],
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    return { message: this.message, code: this.code, issues: this.issues };
  }
}

export function parseInput<Schema extends $ZodType>(schema: Schema, input: unknown): output<Schema> {
  const result = safeParse(schema, input);
  if (result.success) return result.data;
  throw invalidRequest(
    result.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })),
  );
}

/** The 400 for bad input: its message names each wrong field, its issues list them. */
export function invalidRequest(issues: NonNullable<ErrorBody["issues"]>) {
  const summary = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message));
  return new HttpError(400, `Invalid request. ${summary.join("; ")}`, "invalid_request", issues);
}
