/**
 * The API description as an integrator uses it: a standard OpenAPI linter (Redocly's
 * recommended rules) finds no error in it, and the most used TypeScript client generator
 * (openapi-typescript) turns it into types that type-check, with every call named by its
 * operationId.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { createTokenSigner } from "../../server/auth/tokens.ts";
import { openDatabase, type DatabaseHandle } from "../../server/db/client.ts";
import { DEFAULT_LOGIN_RATE_LIMIT, TEST_SECRET_BYTES, TEST_TOKEN_TTL_S } from "../support/api-harness.ts";

type Operation = { operationId?: string; tags?: string[] };
type Description = {
  servers?: { url: string }[];
  info: { license?: { name: string } };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, unknown> };
};

describe("the API description, for integrators' tools", () => {
  let handle: DatabaseHandle;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let dataDir: string;
  let source = "";
  let description: Description;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "clinro-openapi-standards-"));
    handle = await openDatabase({ kind: "pglite" });
    await handle.migrate();
    app = await buildApp({
      db: handle.db,
      tokens: createTokenSigner(TEST_SECRET_BYTES, TEST_TOKEN_TTL_S),
      loginRateLimit: DEFAULT_LOGIN_RATE_LIMIT,
      dataDir,
      mail: { publicUrl: "https://portal.example.org" },
    });
    const response = await app.inject({ method: "GET", url: "/control/openapi.json" });
    expect(response.statusCode).toBe(200);
    source = response.body;
    description = JSON.parse(source) as Description;
  });

  afterAll(async () => {
    await app.close();
    await handle.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("names every call (a unique operationId), files it under an area, and says where the server is", () => {
    const operations = Object.values(description.paths).flatMap((methods) => Object.values(methods));
    const ids = operations.map((operation) => operation.operationId);
    expect(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operations.every((operation) => operation.tags?.length === 1)).toBe(true);
    expect(description.servers).toEqual([expect.objectContaining({ url: "https://portal.example.org" })]);
    expect(description.info.license?.name).toBeTruthy();
    // The recursive show-if term is a component, referred to by name.
    expect(description.components.schemas?.ShowIfTerm).toBeDefined();
    expect(source).not.toContain("#/$defs/");
  });

  it("passes a standard OpenAPI linter (Redocly's recommended rules) with no error", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source, absoluteRef: "openapi.json", config });
    const errors = problems
      .filter((problem) => problem.severity === "error")
      .map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? "?"}`);
    expect(errors).toEqual([]);
  });

  it("generates a TypeScript client (openapi-typescript) that type-checks, with the calls by name", async () => {
    const generated = astToString(await openapiTS(source));
    const folder = await mkdtemp(path.join(tmpdir(), "clinro-openapi-client-"));
    try {
      await writeFile(path.join(folder, "api.d.ts"), generated);
      // A client's use of it: a call by its name, its path parameter and its answer.
      await writeFile(
        path.join(folder, "use.ts"),
        [
          'import type { operations, paths } from "./api";',
          'type Study = operations["getStudy"]["responses"][200]["content"]["application/json"];',
          'type StudyId = paths["/control/studies/{studyId}"]["get"]["parameters"]["path"]["studyId"];',
          'type Definition = operations["getConsent"]["responses"][200]["content"]["application/json"];',
          "export const use = (study: Study, id: StudyId, definition: Definition) => [study.id, id, definition];",
        ].join("\n"),
      );
      const program = ts.createProgram([path.join(folder, "use.ts")], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        skipLibCheck: false,
        types: [],
      });
      const diagnostics = ts
        .getPreEmitDiagnostics(program)
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      expect(diagnostics).toEqual([]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
