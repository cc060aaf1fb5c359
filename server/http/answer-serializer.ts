/**
 * Fastify's serializer compiler for every declared JSON answer: the answer is checked against its
 * schema on the way out (a 500 when the server breaks its own contract), then stringified.
 *
 * fastify-type-provider-zod's compiler encodes (zod's backward direction, made for codecs), and
 * in that direction zod runs every schema that has checks twice: a first pass without its checks,
 * then the pass with them. A search answer of 200 rows was checked twice, most of a millisecond
 * of every search. The API's answers hold no codecs, so the forward parse applies the same rules,
 * once. It also fills in defaults, where a schema has them (a survey definition's): the app's
 * parse would fill in the same.
 */
import type { FastifySerializerCompiler } from "fastify/types/schema.js";
import { ResponseSerializationError } from "fastify-type-provider-zod";
import * as z from "zod/v4/core";

export const answerSerializerCompiler: FastifySerializerCompiler<z.$ZodType> =
  ({ schema, method, url }) =>
  (data) => {
    const result = z.safeParse(schema, data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
