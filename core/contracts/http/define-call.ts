/**
 * A call of the API, declared once: method, path, what it takes (path params, query, body) and
 * what it answers, by status code. The server registers its route from the declaration
 * (server/http/register-call.ts: the parts are validated, the JSON answers checked), the app
 * builds its URL from it (callPath), and GET /control/openapi.json describes it
 * (server/http/openapi.ts). docs/architecture.md has the recipe.
 *
 * Plain data and zod only: the app, the server and the service worker may all import it. The
 * schemas are typed by zod's core, so a declaration takes zod/mini's schemas (the contracts') as
 * well as classic zod's (the server's own).
 */
import type { $ZodObject, $ZodType, output } from "zod/v4/core";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * An answer that is not (only) JSON: its content types (a zip, a PDF, a file), and the schema of
 * its JSON form when application/json is one of them. Not checked on the way out.
 */
export type BinaryAnswer = { contentTypes: readonly string[]; description: string; json?: $ZodType };
/** An answer without a body (204). */
export type EmptyAnswer = { empty: true; description: string };
/** A JSON answer is its zod schema. */
export type Answer = $ZodType | BinaryAnswer | EmptyAnswer;

/** A multipart/form-data body: its text fields (a zod object) and the names of its file parts. */
export type MultipartBody = { multipart: $ZodObject; files: readonly string[] };

/**
 * Whose data a call reaches, so what its caller must hold; required of every declaration, so a
 * call cannot be added without saying it. tests/api/access-matrix.test.ts walks every declared
 * call by it with each role, at a site held, a site not held and a study not held.
 *
 * - public: answered without a token (`public: true`);
 * - own: names nothing but the signed-in caller (their account, session, what is addressed to
 *   them) or nobody's data at all (the server's signing key);
 * - admin: the portal's management (users, staff access): the caller's management role or user
 *   scope decides, whatever study the target holds;
 * - study: names a study (path, query or body); the caller must hold a permission in it;
 * - site: names a site of a study, or reads what lives at sites; the caller must hold the study
 *   and each site (what they do not hold is refused or left out, never answered);
 * - participant: names a participant, or something of one (a submission, a consent session, a
 *   file); the caller must hold the participant's study and site.
 */
export type CallScope = "public" | "own" | "admin" | "study" | "site" | "participant";

export type CallDeclaration = {
  /** The call's name for integrators: OpenAPI's operationId, a generated client's function name. */
  operationId: string;
  /** The area the call belongs to: OpenAPI's tag (Consents, Instruments, Visits...). */
  tag: string;
  method: HttpMethod;
  /** OpenAPI style: /control/studies/{studyId}. */
  path: `/${string}`;
  /** One line for the description. */
  summary: string;
  /** Whose data the call reaches (see CallScope); "public" exactly when `public` is set. */
  scope: CallScope;
  /** Answered without a token (sign-in, the emailed links, health, this description). */
  public?: true;
  params?: $ZodObject;
  query?: $ZodObject;
  /** A JSON body (a zod schema) or a multipart one. */
  body?: $ZodType | MultipartBody;
  /** The request must carry an Idempotency-Key header (writes the outbox repeats). */
  idempotent?: true;
  /** The `version` header the spec's call table gives the call (010 for consents, 009 for uploads). */
  headerVersion?: string;
  /** Every answer the call gives, by status code, including its refusals. */
  answers: Readonly<Record<number, Answer>>;
};

/** Declares a call; the declaration is returned as it is, with its literal types kept. */
export function defineCall<const Call extends CallDeclaration>(call: Call): Call {
  return call;
}

export function isBinaryAnswer(answer: Answer): answer is BinaryAnswer {
  return "contentTypes" in answer;
}

export function isEmptyAnswer(answer: Answer): answer is EmptyAnswer {
  return "empty" in answer;
}

export function isMultipartBody(body: CallDeclaration["body"]): body is MultipartBody {
  return body !== undefined && "multipart" in body;
}

/** The path parameters a call's path names: {studyId} → studyId. */
type PathParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamNames<Rest>
  : never;

export type PathValues<Call extends CallDeclaration> = Record<PathParamNames<Call["path"]>, string | number>;

/** The call's path with its parameters filled in (each one URL-encoded). */
export function callPath<Call extends CallDeclaration>(call: Call, values: PathValues<Call>): string {
  return call.path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = (values as Record<string, string | number | undefined>)[name];
    if (value === undefined) throw new Error(`${call.method} ${call.path}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
}

/** The path in Fastify's syntax: /control/studies/:studyId. */
export function fastifyPath(path: string) {
  return path.replace(/\{(\w+)\}/g, ":$1");
}

/** The JSON answer of a call's success (200, else 201), as the client reads it. */
type SuccessAnswer<Call extends CallDeclaration> = Call["answers"] extends { 200: infer Answer }
  ? Answer
  : Call["answers"] extends { 201: infer Answer }
    ? Answer
    : undefined;

/** What a successful call answers: its JSON answer's output, a Blob for a file, nothing for a 204. */
export type CallOutput<Call extends CallDeclaration> =
  SuccessAnswer<Call> extends $ZodType
    ? output<SuccessAnswer<Call>>
    : SuccessAnswer<Call> extends BinaryAnswer
      ? Blob
      : undefined;

/** The schema that checks a call's successful JSON answer, when it has one. */
export function successSchema(call: CallDeclaration): $ZodType | undefined {
  const answer = call.answers[200] ?? call.answers[201];
  return answer && !isBinaryAnswer(answer) && !isEmptyAnswer(answer) ? answer : undefined;
}
