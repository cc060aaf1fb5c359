/**
 * One typed call of the API, from its declaration (core/contracts/calls/): the path with its
 * parameters filled in, the method, the token unless the call is public, the spec's `version`
 * header, and the check of the answer against the declared schema. What the declaration says is
 * never written again by hand; request() adds the shared request behaviour (errors, toasts,
 * logout, loaders).
 */
import {
  callPath,
  successSchema,
  type CallDeclaration,
  type CallOutput,
  type PathValues,
} from "../../core/contracts/http/define-call.ts";
import { request, type RequestOptions } from "./request.ts";
import type { RequestQuery } from "./request-url.ts";

export type CallInput<Call extends CallDeclaration> = {
  /** The path's parameters ({studyId}...). */
  params?: PathValues<Call>;
  query?: RequestQuery;
  body?: unknown;
};

/** The request behaviour a caller still chooses: messages, error handling, loaders, abort. */
export type CallOptions = Omit<
  RequestOptions<unknown>,
  "path" | "method" | "query" | "body" | "auth" | "schema"
>;

export function callApi<Call extends CallDeclaration>(
  call: Call,
  input: CallInput<Call> = {},
  options: CallOptions = {},
): Promise<CallOutput<Call>> {
  const schema = options.responseType === "raw" ? undefined : successSchema(call);
  return request<CallOutput<Call>>({
    ...options,
    path: callPath(call, input.params ?? ({} as PathValues<Call>)),
    method: call.method,
    query: input.query,
    body: input.body,
    auth: call.public !== true,
    headers: { ...(call.headerVersion ? { version: call.headerVersion } : {}), ...options.headers },
    schema: schema as RequestOptions<CallOutput<Call>>["schema"],
  });
}
