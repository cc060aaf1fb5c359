/**
 * Fastify's serializer compiler for every declared JSON answer: the answer is checked against its
 * schema on the way out (a 500 when the server breaks its own contract), and sent with only the
 * fields the schema names.
 *
 * Most schemas are compiled to a JSON Schema check and writer that read the answer in place
 * (compiled-answer.ts). The rest are parsed by zod, forwards: fastify-type-provider-zod's own
 * compiler encodes (zod's backward direction, made for codecs), in which zod runs every schema
 * that has checks twice. The API's answers hold no codecs, so the forward parse applies the same
 * rules, once, and fills in defaults where a schema has them (a consent's), as the app's parse
 * would.
 *
 * With crossCheck (the test harness's strict answers), every answer of the compiled path is also
 * parsed by zod, and a difference in verdict or in the JSON sent is a failure: the suite's answers
 * prove the translation.
 */
import { isDeepStrictEqual } from "node:util";
import type { FastifySerializerCompiler } from "fastify/types/schema.js";
import { ResponseSerializationError } from "fastify-type-provider-zod";
import * as z from "zod/v4/core";
import { compiledAnswer } from "./compiled-answer.ts";

export type AnswerSerializerOptions = { crossCheck?: boolean };

function parsedByZod(schema: z.$ZodType, method: string, url: string, data: unknown) {
  const result = z.safeParse(schema, data);
  if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
  return JSON.stringify(result.data);
}

export function answerSerializerCompiler(
  options: AnswerSerializerOptions = {},
): FastifySerializerCompiler<z.$ZodType> {
  return ({ schema, method, url }) =>
    (data) => {
      // Compiled at the first answer, not at start-up: most apps answer few of their 250 calls.
      const fast = compiledAnswer(schema);
      if (!fast) return parsedByZod(schema, method, url, data);
      const holds = fast.check(data);
      const written = holds ? fast.write(data) : "";
      if (options.crossCheck) crossCheck(schema, method, url, data, holds, written);
      if (!holds) {
        const issues = (fast.check.errors ?? []).map((error) => ({
          code: "custom" as const,
          path: error.instancePath.split("/").slice(1),
          message: error.message ?? "is invalid",
          input: undefined,
        }));
        throw new ResponseSerializationError(method, url, { cause: new z.$ZodError(issues) });
      }
      return written;
    };
}

function crossCheck(
  schema: z.$ZodType,
  method: string,
  url: string,
  data: unknown,
  holds: boolean,
  written: string,
) {
  const byZod = z.safeParse(schema, data);
  const agree =
    byZod.success === holds &&
    (!holds || isDeepStrictEqual(JSON.parse(written), JSON.parse(JSON.stringify(byZod.data))));
  if (!agree) {
    throw new Error(
      `${method} ${url}: the compiled answer check ${holds ? "passed" : "refused"} an answer zod's parse ${
        byZod.success ? "passed" : "refused"
      }${byZod.success && holds ? " and wrote it differently" : ""}`,
    );
  }
}
