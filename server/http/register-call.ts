/**
 * Registers a route from its declaration (core/contracts/http/define-call.ts): Fastify validates
 * the path params, query and JSON body with the declaration's zod schemas before the handler runs
 * (a 400 naming each wrong field, see server/app.ts's error handler), and checks every JSON
 * answer against the schema of its status code on the way out (a 500 if the server breaks its
 * own contract). The handler receives the parsed values, typed from the declaration. (The zod
 * compilers are the app's, set in server/app.ts: every route with a schema is declared.)
 *
 * Every call registered here is listed in app.registeredCalls, which GET /control/openapi.json
 * describes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from "fastify";
import { confirmedSession } from "../auth/authenticate.ts";
import { HttpError } from "./errors.ts";
import { undeclaredAnswer } from "./undeclared-answer.ts";
import type * as z from "zod/v4/core";
import {
  fastifyPath,
  isBinaryAnswer,
  isEmptyAnswer,
  isMultipartBody,
  type CallDeclaration,
} from "../../core/contracts/http/define-call.ts";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * The JSON body as it arrived, before the declaration's schema parsed it (which orders and
     * strips its fields): idempotent writes hash this, so a repeat is recognised as the same
     * request whatever the schema does, and as it was before routes were declared.
     */
    sentBody?: unknown;
  }
  interface FastifyInstance {
    /** The declarations of the calls registered so far (shared by every encapsulated context). */
    registeredCalls: CallDeclaration[];
    /** An undeclared answer fails (500) rather than being logged (see BuildAppOptions). */
    strictAnswers: boolean;
  }
}

type Parsed<Schema> = Schema extends z.$ZodType ? z.output<Schema> : undefined;

/** The request a handler receives: params, query and body as the declaration parses them. */
export type CallRequest<Call extends CallDeclaration> = FastifyRequest<{
  Params: Parsed<Call["params"]>;
  Querystring: Parsed<Call["query"]>;
  // A multipart body is read by the handler itself (request.parts()).
  Body: Call["body"] extends z.$ZodType ? z.output<Call["body"]> : unknown;
}>;

/** The JSON a handler may return: the input of one of the call's JSON answer schemas. */
export type AnswerBody<Call extends CallDeclaration> = {
  [Status in keyof Call["answers"]]: Call["answers"][Status] extends z.$ZodType
    ? z.input<Call["answers"][Status]>
    : never;
}[keyof Call["answers"]];

/**
 * A handler returns a declared JSON answer (checked by the compiler here, and by the answer's
 * schema at run time), or the reply it has already sent (a status, a file, a 204).
 */
export type CallHandler<Call extends CallDeclaration> = (
  request: CallRequest<Call>,
  reply: FastifyReply,
) => Promise<AnswerBody<Call> | FastifyReply>;

export type CallOptions = {
  /** Bytes the body may hold, when the call allows more (or less) than the app's default. */
  bodyLimit?: number;
  /**
   * The handler's read holds the session check in its SQL (see sessionHolds), and it checks the
   * session on its own only when the read finds nothing. Input that fails validation still
   * answers 401 first when the session does not hold, as on every other call.
   */
  sessionCheckedByRead?: boolean;
};

function isJsonContentType(request: FastifyRequest) {
  const type = String(request.headers["content-type"]).split(";")[0]?.trim().toLowerCase();
  return type === "application/json";
}

export function registerCall<Call extends CallDeclaration>(
  app: FastifyInstance,
  call: Call,
  handler: CallHandler<Call>,
  options: CallOptions = {},
) {
  const schema: FastifySchema = {};
  if (call.params) schema.params = call.params;
  if (call.query) schema.querystring = call.query;
  const jsonBody = call.body !== undefined && !isMultipartBody(call.body);
  if (jsonBody) schema.body = call.body;
  // Only JSON answers are checked; a file, a zip or a 204 has no JSON to check.
  const json = Object.entries(call.answers).filter(
    ([, answer]) => !isBinaryAnswer(answer) && !isEmptyAnswer(answer),
  );
  if (json.length > 0) schema.response = Object.fromEntries(json);

  app.route({
    method: call.method,
    url: fastifyPath(call.path),
    schema,
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    ...(options.sessionCheckedByRead
      ? { config: { sessionCheckedByRead: true }, attachValidation: true }
      : {}),
    // Runs before validation: a JSON call refuses a body of another type (multipart, a form)
    // with a 415, and keeps the body as sent (see sentBody).
    preValidation: async (request: FastifyRequest) => {
      if (jsonBody && request.headers["content-type"] !== undefined && !isJsonContentType(request)) {
        throw new HttpError(415, "This call takes a JSON body (application/json).", "unsupported_media_type");
      }
      request.sentBody = request.body;
    },
    // Status codes are stated before the handler: an answer the declaration does not list is a
    // broken contract, whatever its body.
    onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const problem = undeclaredAnswer(call, reply.statusCode, reply.getHeader("content-type"), payload);
      if (!problem) return payload;
      if (app.strictAnswers) throw new Error(`${call.method} ${call.path}: ${problem}`);
      request.log.error({ call: `${call.method} ${call.path}` }, problem);
      return payload;
    },
    handler: options.sessionCheckedByRead
      ? async (request: FastifyRequest, reply: FastifyReply) => {
          if (request.validationError) {
            await confirmedSession(request);
            throw request.validationError;
          }
          return (handler as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>)(
            request,
            reply,
          );
        }
      : (handler as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>),
  });
  app.registeredCalls.push(call);
}
