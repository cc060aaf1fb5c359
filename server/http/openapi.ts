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
} from "../../core/contracts/http/define-call.ts";

type JsonSchema = Record<string, unknown>;

/**
 * Shared schemas, as the description's components: a recursive schema (a show-if term holds
 * terms) is emitted by zod with `$ref`s into the schema's own `$defs`, which do not resolve
 * where the schema sits inside an operation. Each `$defs` entry is moved here, under the id its
 * schema was registered with (`ShowIfTerm`), and its references point here.
 */
class Components {
  readonly schemas: Record<string, JsonSchema> = {};

  /** What a client sends is zod's input; what the server answers is its output. */
  jsonSchema(schema: z.core.$ZodType, io: "input" | "output"): JsonSchema {
    const generated = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
    const { $schema: _dialect, $defs, ...rest } = generated;
    const definitions = Object.entries(($defs ?? {}) as Record<string, JsonSchema>);
    if (definitions.length === 0) return rest;
    // Names first (a definition may refer to itself), then the definitions with their refs moved.
    const names = new Map(definitions.map(([name]) => [name, this.nameFor(name, io)] as const));
    for (const [name, definition] of definitions) {
      this.schemas[names.get(name)!] = rewriteRefs(definition, names) as JsonSchema;
    }
    return rewriteRefs(rest, names) as JsonSchema;
  }

  /**
   * A component's name: the id its schema was registered with, suffixed by the direction when
   * the input and output forms differ (zod emits each); an unnamed one gets a number.
   */
  private readonly namedAs = new Map<string, string>();
  private nameFor(name: string, io: "input" | "output"): string {
    if (/^__schema\d+$/.test(name)) {
      let index = Object.keys(this.schemas).length + 1;
      while (this.schemas[`Schema${index}`] !== undefined) index += 1;
      return `Schema${index}`;
    }
    const key = `${name}:${io}`;
    const known = this.namedAs.get(key);
    if (known) return known;
    const taken = [...this.namedAs.values()].includes(name);
    const chosen = taken ? `${name}${io === "input" ? "Input" : "Output"}` : name;
    this.namedAs.set(key, chosen);
    return chosen;
  }

  finish() {
    return this.schemas;
  }
}

function rewriteRefs(value: unknown, names: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, names));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      if (key === "$ref" && typeof inner === "string" && inner.startsWith("#/$defs/")) {
        const name = inner.slice("#/$defs/".length);
        return [key, `#/components/schemas/${names.get(name) ?? name}`];
      }
      return [key, rewriteRefs(inner, names)];
    }),
  );
}

function parameters(components: Components, schema: z.core.$ZodObject | undefined, where: "path" | "query") {
  if (!schema) return [];
  const object = components.jsonSchema(schema, "input");
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === "path" || required.has(name),
    schema: property,
  }));
}

function requestBody(components: Components, body: CallDeclaration["body"]) {
  if (!body) return undefined;
  if (isMultipartBody(body)) {
    const fields = components.jsonSchema(body.multipart, "input");
    const properties = { ...(fields.properties as object) } as Record<string, JsonSchema>;
    for (const file of body.files)
      properties[file] = { type: "string", contentMediaType: "application/octet-stream" };
    const required = [...((fields.required ?? []) as string[]), ...body.files];
    return {
      required: true,
      content: { "multipart/form-data": { schema: { type: "object", properties, required } } },
    };
  }
  return {
    required: true,
    content: { "application/json": { schema: components.jsonSchema(body, "input") } },
  };
}

function responses(components: Components, call: CallDeclaration) {
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
                  ? components.jsonSchema(answer.json, "output")
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
          content: { "application/json": { schema: components.jsonSchema(answer, "output") } },
        },
      ];
    }),
  );
}

/** The areas of the API, in the order a reader meets them (OpenAPI tags). */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Account: "Sign-in, passwords, the signed-in user",
  "Studies and participants": "Studies, sites and their participants",
  Instruments: "Clinician-rated instruments: lists, definitions, submissions, history",
  Consents: "Electronic consents: definitions, signings, documents",
  Events: "Events of the participant's instruments and announcements",
  Files: "Uploaded files (photos, signatures, documents)",
  Announcements: "The inbox's announcements and onboarding",
  Visits: "Virtual visits",
  Exports: "A study's collected data in the field's standards: CSV, CDISC ODM, FHIR",
  Users: "Staff accounts (administrators)",
  System: "Health and this description",
};

export type OpenApiOptions = {
  /** The portal's own address (PUBLIC_URL): the description's server. */
  serverUrl: string;
};

export function openApiDocument(calls: readonly CallDeclaration[], version: string, options: OpenApiOptions) {
  const components = new Components();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const call of calls) {
    const idempotencyKey = call.idempotent
      ? [{ name: "Idempotency-Key", in: "header", required: true, schema: { type: "string", minLength: 1 } }]
      : [];
    (paths[call.path] ??= {})[call.method.toLowerCase()] = {
      operationId: call.operationId,
      tags: [call.tag],
      summary: call.summary,
      security: call.public ? [] : [{ bearer: [] }],
      parameters: [
        ...parameters(components, call.params, "path"),
        ...parameters(components, call.query, "query"),
        ...idempotencyKey,
        ...(call.headerVersion
          ? [
              {
                name: "version",
                in: "header",
                required: false,
                description:
                  "The call's version in the portal's call tables; the server accepts the call without it",
                schema: { type: "string", const: call.headerVersion },
              },
            ]
          : []),
      ],
      ...(call.body ? { requestBody: requestBody(components, call.body) } : {}),
      responses: responses(components, call),
    };
  }
  const used = new Set(calls.map((call) => call.tag));
  return {
    openapi: "3.1.0",
    info: {
      title: "ClinRO portal API",
      version,
      description:
        "The API of the ClinRO portal: every call the portal's app makes. Calls take a bearer token from POST /control/clinro/login unless marked public.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: options.serverUrl, description: "This portal" }],
    tags: Object.entries(TAG_DESCRIPTIONS)
      .filter(([name]) => used.has(name))
      .map(([name, description]) => ({ name, description })),
    components: {
      schemas: components.finish(),
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
    },
    paths,
  };
}
