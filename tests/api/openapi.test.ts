import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { buildApp } from "../../server/app.ts";
import { openDatabase, type DatabaseHandle } from "../../server/db/client.ts";
import { openApiDocument } from "../../server/http/openapi.ts";
import { getStudyCall } from "../../core/contracts/calls/study-calls.ts";
import { uploadFileCall } from "../../core/contracts/calls/file-calls.ts";
import { createTokenSigner } from "../../server/auth/tokens.ts";
import { DEFAULT_LOGIN_RATE_LIMIT, TEST_SECRET_BYTES, TEST_TOKEN_TTL_S } from "../support/api-harness.ts";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

type Description = {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown> & { responses: Record<string, unknown> }>>;
};

/**
 * Every call the two specification documents name (spec 01 and spec 02, their call tables), as
 * method and path; the names of path parameters aside, since ours say what they hold.
 */
const SPEC_CALLS = [
  "GET /control/clinro/participants/{}/instruments",
  "GET /control/clinro/users/me",
  "PATCH /control/clinro/users/me",
  "GET /control/participants/me/announcements",
  "GET /control/participants/{}/instrument_history/clinro",
  "GET /control/participants/{}/instruments/instances",
  "GET /control/pending_instruments",
  "GET /control/studies/{}",
  "GET /control/studies/{}/instruments/{}/{}",
  "GET /control/admin/studies/{}/instruments/{}/{}",
  "GET /control/studies/{}/room_name/{}/validate_room",
  "GET /control/studies/{}/sites/{}/clinro_search",
  "GET /control/studies/{}/sites/{}/clinro_visits",
  "GET /control/studies/{}/sites/{}/participants/{}",
  "GET /control/users",
  "GET /control/v2/clinro/consent",
  "GET /control/v2/clinro/email",
  "GET /control/v2/clinro/me/consents",
  "GET /control/v2/clinro/me/consents/{}",
  "GET /control/v2/consent/pdf",
  "GET /control/v2/studies/{}/participants/{}/download",
  "POST /control/change_password",
  "POST /control/clinro/login",
  "POST /control/clinro/participant/{}/instruments/{}/submission",
  "POST /control/file/upload",
  "POST /control/participants/me/events",
  "POST /control/participants/me/forgot_username",
  "POST /control/users/forgot_password",
  "POST /control/users/setup_password",
  "POST /control/users/verify_token",
  "POST /control/v2/clinro/participant/{}/consent",
  "POST /control/v2/witness/participant/{}/consent",
];

/** Fastify's /a/:b as OpenAPI's /a/{b}. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, "{$1}");

describe("GET /control/openapi.json", () => {
  const routes: { method: string; url: string; websocket: boolean }[] = [];
  let app: Awaited<ReturnType<typeof buildApp>>;
  let handle: DatabaseHandle;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "clinro-openapi-"));
    // Migrated: starting the app clears the signalling hub's room places (visit_room_peers).
    handle = await openDatabase({ kind: "pglite" });
    await handle.migrate();
    app = await buildApp(
      {
        db: handle.db,
        tokens: createTokenSigner(TEST_SECRET_BYTES, TEST_TOKEN_TTL_S),
        loginRateLimit: DEFAULT_LOGIN_RATE_LIMIT,
        dataDir,
      },
      {
        onRoute: (route) => {
          for (const method of [route.method].flat()) {
            routes.push({ method, url: route.url, websocket: route.websocket === true });
          }
        },
      },
    );
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    await handle.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const description = async () => {
    const response = await app.inject({ method: "GET", url: "/control/openapi.json" });
    expect(response.statusCode).toBe(200);
    return response.json<Description>();
  };

  it("is answered without a token, as OpenAPI 3.1", async () => {
    expect((await description()).openapi).toBe("3.1.0");
  });

  it("describes every HTTP route the server registered (HEAD and WebSocket routes aside)", async () => {
    const { paths } = await description();
    const registered = routes.filter(
      (route) => route.method !== "HEAD" && !route.websocket && route.url.startsWith("/control/"),
    );
    expect(registered.length).toBeGreaterThan(20);
    const missing = registered.filter(
      (route) => paths[openApiPath(route.url)]?.[route.method.toLowerCase()] === undefined,
    );
    expect(missing).toEqual([]);
  });

  it("describes every call of both specification documents", async () => {
    const { paths } = await description();
    const described = new Set(
      Object.entries(paths).flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.replace(/\{\w+\}/g, "{}")}`),
      ),
    );
    expect(SPEC_CALLS.filter((call) => !described.has(call))).toEqual([]);
  });

  it("states each call's answers by status code, refusals included", async () => {
    const { paths } = await description();
    const study = paths["/control/studies/{studyId}"]?.get;
    expect(Object.keys(study?.responses ?? {})).toEqual(["200", "400", "401", "403"]);
    expect(study?.parameters).toEqual([
      expect.objectContaining({ name: "studyId", in: "path", required: true }),
    ]);
    expect(study?.security).toEqual([{ bearer: [] }]);
    expect(paths["/control/clinro/login"]?.post?.security).toEqual([]);
  });

  it("declares the multipart upload and the zip form of a definition with their content types", async () => {
    const { paths } = await description();
    const upload = paths["/control/file/upload"]?.post?.requestBody as {
      content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }>;
    };
    expect(Object.keys(upload.content)).toEqual(["multipart/form-data"]);
    expect(upload.content["multipart/form-data"]?.schema.required).toContain("upload_file");
    expect(upload.content["multipart/form-data"]?.schema.properties.participant_id).toBeDefined();
    const definition = paths["/control/admin/studies/{studyId}/instruments/{instrumentId}/{instrument}"]?.get
      ?.responses["200"] as { content: Record<string, unknown> };
    expect(Object.keys(definition.content)).toEqual(["application/json", "application/zip"]);
  });

  it("changes with the declarations: a field added to a call shows in its description", () => {
    const before = openApiDocument([getStudyCall, uploadFileCall], "test", {
      serverUrl: "http://localhost",
    }) as unknown as Description;
    const changed = {
      ...getStudyCall,
      query: z.object({ include_archived: z.boolean().optional() }),
    };
    const after = openApiDocument([changed, uploadFileCall], "test", {
      serverUrl: "http://localhost",
    }) as unknown as Description;
    const names = (document: Description) =>
      (document.paths["/control/studies/{studyId}"]?.get?.parameters as { name: string }[]).map(
        (parameter) => parameter.name,
      );
    expect(names(before)).toEqual(["studyId"]);
    expect(names(after)).toEqual(["studyId", "include_archived"]);
  });
});
