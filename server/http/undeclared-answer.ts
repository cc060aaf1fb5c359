/**
 * Whether an answer is one its call declares (core/contracts/http/define-call.ts): its status
 * code, and for a file its content type, for a 204 no body. JSON bodies are checked by their
 * schemas (the serializer); this covers what a schema cannot.
 */
import {
  isBinaryAnswer,
  isEmptyAnswer,
  type CallDeclaration,
} from "../../core/contracts/http/define-call.ts";

/**
 * Answers any route may give without its declaration listing them: bad input refused before the
 * call's own schemas (malformed or too deeply nested JSON, NUL or a lone surrogate in any text:
 * server/http/input-bounds.ts), the body-size and media-type refusals Fastify gives before the
 * handler, the sign-in limiter, and a server failure.
 */
const ANY_ROUTE = new Set([400, 413, 415, 429, 500, 503]);

export function undeclaredAnswer(
  call: CallDeclaration,
  status: number,
  contentType: unknown,
  payload: unknown,
): string | null {
  if (ANY_ROUTE.has(status)) return null;
  const answer = call.answers[status];
  if (!answer) return `answered ${status}, which the call does not declare`;
  if (isEmptyAnswer(answer)) {
    const hasBody = typeof payload === "string" ? payload.length > 0 : payload != null;
    return hasBody ? `answered ${status} with a body, declared empty` : null;
  }
  if (isBinaryAnswer(answer)) {
    const type =
      String(contentType ?? "")
        .split(";")[0]
        ?.trim()
        .toLowerCase() ?? "";
    const declared = answer.contentTypes.map((value) => value.toLowerCase());
    return declared.includes(type)
      ? null
      : `answered ${status} as ${type || "no content type"}, declared ${declared.join(", ")}`;
  }
  return null;
}
