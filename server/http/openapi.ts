/**
 * The OpenAPI 3.1 description of the calls the server registered (app.registeredCalls), built
 * from their declarations: the same zod schemas that validate the requests and check the answers,
 * turned into JSON Schema (draft 2020-12, the dialect OpenAPI 3.1 uses) by zod.
 */
import { z } from "zod";
import {
  isBinaryAnswer,
  isEmptyAnswer,
  isMultipartBody,
  type CallDeclaration,
} from "../../src/contracts/http/define-call.ts";

type JsonSchema = Record<string, unknown>;

/** What a client sends is zod's input; what the server answers is its output. */
function jsonSchema(schema: z.core.$ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

function parameters(schema: z.core.$ZodObject | undefined, where: "path" | "query") {
  if (!schema) return [];
  const object = jsonSchema(schema, "input");
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === "path" || required.has(name),
    schema: property,
  }));
}

function requestBody(body: CallDeclaration["body"]) {
  if (!body) return undefined;
  if (isMultipartBody(body)) {
    const fields = jsonSchema(body.multipart, "input");
    const properties = { ...(fields.properties as object) } as Record<string, JsonSchema>;
    for (const file of body.files)
      properties[file] = { type: "string", contentMediaType: "application/octet-stream" };
    const required = [...((fields.required ?? []) as string[]), ...body.files];
    return {
      required: true,
      content: { "multipart/form-data": { schema: { type: "object", properties, required } } },
    };
  }
  return { required: true, content: { "application/json": { schema: jsonSchema(body, "input") } } };
}

function responses(call: CallDeclaration) {
  return Object.fromEntries(
    Object.entries(call.answers).map(([status, answer]) => {
      if (isEmptyAnswer(answer)) return [status, { description: answer.description }];
      if (isBinaryAnswer(answer)) {
        const content = Object.fromEntries(
          answer.contentTypes.map((type) => [
            type,
            {
              schema:
                type === "application/json" && answer.json
                  ? jsonSchema(answer.json, "output")
                  : { type: "string", contentMediaType: type },
            },
          ]),
        );
        return [status, { description: answer.description, content }];
      }
      return [
        status,
        {
          // The description a declaration gives an answer (.check(z.describe(...))) is in zod's registry.
          description:
            z.globalRegistry.get(answer)?.description ?? (Number(status) < 400 ? "Success" : "Refused"),
          content: { "application/json": { schema: jsonSchema(answer, "output") } },
        },
      ];
    }),
  );
}

export function openApiDocument(calls: readonly CallDeclaration[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const call of calls) {
    const idempotencyKey = call.idempotent
      ? [{ name: "Idempotency-Key", in: "header", required: true, schema: { type: "string", minLength: 1 } }]
      : [];
    (paths[call.path] ??= {})[call.method.toLowerCase()] = {
      summary: call.summary,
      security: call.public ? [] : [{ bearer: [] }],
      parameters: [...parameters(call.params, "path"), ...parameters(call.query, "query"), ...idempotencyKey],
      ...(call.body ? { requestBody: requestBody(call.body) } : {}),
      responses: responses(call),
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "ClinRO portal API", version },
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
    paths,
  };
}
