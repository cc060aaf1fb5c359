import { gunzipSync } from "node:zlib";
import { and, eq } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { beforeAll, expect, it } from "vitest";
import packageJson from "../../package.json" with { type: "json" };
import { errorBody } from "../../core/contracts/errors.ts";
import { definitionPath, definitionResponse } from "../../core/contracts/instrument-schemas.ts";
import { instrumentUrl } from "../../core/contracts/instrument-lists.ts";
import { instrumentDefinitions, instruments } from "../../server/db/schema.ts";
import { readDemoDefinition } from "../../server/seed/demo-instruments.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import { parseDefinitionOrThrow } from "../support/submissions.ts";

const definitionUrl = (studyId: number | string, instrumentId: number | string, slug: string, admin = true) =>
  `/control/${admin ? "admin/" : ""}studies/${studyId}/instruments/${instrumentId}/${slug}`;

describeOnEachDatabase("the survey definition call", (api) => {
  const idOf = async (studyId: number, slug: string) => {
    const [row] = await api.db
      .select({ id: instruments.id })
      .from(instruments)
      .where(and(eq(instruments.studyId, studyId), eq(instruments.slug, slug)));
    if (!row) throw new Error(`no ${slug} in study ${studyId}`);
    return row.id;
  };
  let tokens: Promise<{ coordinator: string; staff3: string }> | undefined;
  const signedIn = () =>
    (tokens ??= (async () => ({
      coordinator: await api.signIn("coordinator@demo.test"),
      staff3: await api.signIn("staff3@demo.test"),
    }))());
  /** A clinician instrument of this file's own in study 103, with no definition yet: its id. */
  const addInstrument = async (slug: string, name: string) => {
    const [row] = await api.db
      .insert(instruments)
      .values({ studyId: 103, name, displayName: name, instrumentType: "CLINRO", slug })
      .returning({ id: instruments.id });
    return row!.id;
  };
  /** An instrument of this file's own, to add versions to. */
  let versioned = 0;

  beforeAll(async () => {
    versioned = await addInstrument("versioned", "Versioned");
    const cgi = readDemoDefinition("cgi-s");
    await api.db.insert(instrumentDefinitions).values([
      { instrumentId: versioned, versionNumber: 1, definition: { ...cgi, title: "First" } },
      { instrumentId: versioned, versionNumber: 2, definition: { ...cgi, title: "Second", version: 1 } },
    ]);
  });

  it("serves HAM-D 17 as JSON under admin/studies, with version and instrument_id, not cached without asking", async () => {
    const { coordinator } = await signedIn();
    const id = await idOf(101, "ham-d-17");
    const response = await api.request("GET", `${definitionUrl(101, id, "ham-d-17")}?instance=7&x=y`, {
      token: coordinator,
    });
    expect(response.statusCode).toBe(200);
    expect(String(response.headers["content-type"])).toMatch(/^application\/json/);
    expect(response.headers["cache-control"]).toBe("no-cache");
    const body = definitionResponse.parse(response.json());
    expect(body).toMatchObject({ id: "ham-d-17", version: 1, instrument_id: id, type: "CLINRO" });
    // Who may administer it travels with it, for the page's access check.
    expect(body).toMatchObject({ display_name: "HAM-D 17", permissions: ["16", "11", "12", "13"] });
    expect(body.order).toHaveLength(18);
    expect(parseDefinitionOrThrow(body).scores.map((score) => score.id)).toEqual(["total"]);
  });

  it("sends a definition gzip-compressed to a client that accepts it", async () => {
    const { coordinator } = await signedIn();
    const id = await idOf(101, "ham-d-17");
    const plain = await api.request("GET", definitionUrl(101, id, "ham-d-17"), { token: coordinator });
    const zipped = await api.request("GET", definitionUrl(101, id, "ham-d-17"), {
      token: coordinator,
      headers: { "accept-encoding": "gzip" },
    });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString("utf8"))).toEqual(plain.json());
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(String(zipped.headers.vary)).toMatch(/accept-encoding/i);
    const gzipRefused = await api.request("GET", definitionUrl(101, id, "ham-d-17"), {
      token: coordinator,
      headers: { "accept-encoding": "gzip;q=0, identity" },
    });
    expect(gzipRefused.headers["content-encoding"]).toBeUndefined();
    expect(gzipRefused.json()).toEqual(plain.json());
  });

  it("answers the same under /control/studies/ as under /control/admin/studies/", async () => {
    const { coordinator } = await signedIn();
    const id = await idOf(102, "cgi-s");
    const plain = await api.request("GET", definitionUrl(102, id, "cgi-s", false), { token: coordinator });
    const admin = await api.request("GET", definitionUrl(102, id, "cgi-s"), { token: coordinator });
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toEqual(admin.json());
    expect(definitionResponse.parse(plain.json()).instrument_id).toBe(id);
  });

  it("the client's path is the instrument url under admin/studies", async () => {
    const { coordinator } = await signedIn();
    const id = await idOf(101, "adverse-events-review");
    const path = definitionPath(instrumentUrl(101, id, "adverse-events-review"));
    expect(path).toBe(definitionUrl(101, id, "adverse-events-review"));
    expect((await api.request("GET", path, { token: coordinator })).statusCode).toBe(200);
  });

  it("serves the kitchen sink as a zip holding kitchen-sink.json", async () => {
    const { coordinator } = await signedIn();
    const id = await idOf(101, "kitchen-sink");
    const response = await api.request("GET", definitionUrl(101, id, "kitchen-sink"), { token: coordinator });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/zip");
    expect(response.headers["cache-control"]).toBe("no-cache");
    const files = unzipSync(new Uint8Array(response.rawPayload));
    expect(Object.keys(files)).toEqual(["kitchen-sink.json"]);
    const json = JSON.parse(strFromU8(files["kitchen-sink.json"]!)) as unknown;
    expect(definitionResponse.parse(json)).toMatchObject({
      id: "kitchen-sink",
      version: 1,
      instrument_id: id,
    });
    expect(parseDefinitionOrThrow(json).order.length).toBeGreaterThan(20);
  });

  // An app of the server's version takes such a definition as checked (src/api/survey-definition-api.ts).
  it("marks a definition that passes the engine's checks with the server's version, defaults filled in, as JSON and in a zip", async () => {
    const { coordinator } = await signedIn();
    for (const slug of ["ham-d-17", "kitchen-sink"]) {
      const id = await idOf(101, slug);
      const response = await api.request("GET", definitionUrl(101, id, slug), { token: coordinator });
      expect(response.statusCode).toBe(200);
      const json =
        response.headers["content-type"] === "application/zip"
          ? (JSON.parse(
              strFromU8(unzipSync(new Uint8Array(response.rawPayload))[`${slug}.json`]!),
            ) as unknown)
          : response.json();
      const body = definitionResponse.parse(json);
      expect(body.validated_for_app, slug).toBe(packageJson.version);
      // What the engine would make of it, every default in place: nothing left for the app to fill.
      const { validated_for_app: _mark, ...served } = json as Record<string, unknown>;
      expect(served, slug).toEqual(parseDefinitionOrThrow(served));
    }
  });

  it("serves a stored definition that no longer passes the engine's checks as stored, without the mark", async () => {
    const { coordinator } = await signedIn();
    const created = await addInstrument("broken", "Broken");
    const cgi = readDemoDefinition("cgi-s");
    await api.db.insert(instrumentDefinitions).values({
      instrumentId: created,
      versionNumber: 1,
      definition: { ...cgi, order: [...(cgi.order as string[]), "no-such-question"] },
    });
    const response = await api.request("GET", definitionUrl(103, created, "broken"), {
      token: coordinator,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json() as Record<string, unknown>;
    expect(body.validated_for_app).toBeUndefined();
    expect(body.order).toContain("no-such-question");
  });

  it("every clinician instrument of every demo study has a definition", async () => {
    const { coordinator } = await signedIn();
    const rows = await api.db
      .select({ id: instruments.id, studyId: instruments.studyId, slug: instruments.slug })
      .from(instruments)
      .where(eq(instruments.instrumentType, "CLINRO"));
    const demo = rows.filter((row) => !["versioned", "broken", "re-imported"].includes(row.slug));
    expect(new Set(demo.map((row) => row.studyId))).toEqual(new Set([101, 102, 103]));
    for (const row of demo) {
      const response = await api.request("GET", definitionUrl(row.studyId, row.id, row.slug), {
        token: coordinator,
      });
      expect(response.statusCode, `${row.slug} of study ${row.studyId}`).toBe(200);
    }
  });

  it("serves the latest version, numbered by its version_number whatever the file says", async () => {
    const { coordinator } = await signedIn();
    const response = await api.request("GET", definitionUrl(103, versioned, "versioned"), {
      token: coordinator,
    });
    expect(response.statusCode).toBe(200);
    expect(definitionResponse.parse(response.json())).toMatchObject({ title: "Second", version: 2 });
  });

  it("serves a version imported after the call was last answered, checked and marked", async () => {
    const { coordinator } = await signedIn();
    const created = await addInstrument("re-imported", "Re-imported");
    const cgi = readDemoDefinition("cgi-s");
    const fetchDefinition = async () => {
      const response = await api.request("GET", definitionUrl(103, created, "re-imported"), {
        token: coordinator,
      });
      expect(response.statusCode).toBe(200);
      return response.json() as Record<string, unknown>;
    };
    await api.db
      .insert(instrumentDefinitions)
      .values({ instrumentId: created, versionNumber: 1, definition: { ...cgi, title: "Before" } });
    expect(await fetchDefinition()).toMatchObject({ title: "Before", version: 1 });
    // Asked twice: the second answer comes from the parse the first one kept.
    expect(await fetchDefinition()).toMatchObject({ title: "Before", version: 1 });
    await api.db
      .insert(instrumentDefinitions)
      .values({ instrumentId: created, versionNumber: 2, definition: { ...cgi, title: "After" } });
    expect(await fetchDefinition()).toMatchObject({
      title: "After",
      version: 2,
      validated_for_app: packageJson.version,
    });
    // The instrument's own name and permissions, changed since, are the ones served.
    await api.db
      .update(instruments)
      .set({ displayName: "Renamed", permissions: ["16"] })
      .where(eq(instruments.id, created));
    expect(await fetchDefinition()).toMatchObject({
      title: "After",
      display_name: "Renamed",
      permissions: ["16"],
    });
  });

  /** [case, the instrument's study and slug, the study and slug asked for] */
  const notFound = [
    ["a slug that is not the instrument's", [101, "ham-d-17"], [101, "cgi-s"]],
    ["an instrument of another study", [101, "ham-d-17"], [103, "ham-d-17"]],
    [
      "an instrument without a definition (an announcement)",
      [101, "visit-schedule-update"],
      [101, "visit-schedule-update"],
    ],
  ] as const;
  it.each(notFound)("404 for %s", async (_case, [ownerStudy, slug], [askedStudy, askedSlug]) => {
    const { coordinator } = await signedIn();
    const id = await idOf(ownerStudy, slug);
    const response = await api.request("GET", definitionUrl(askedStudy, id, askedSlug), {
      token: coordinator,
    });
    expect(response.statusCode).toBe(404);
    expect(errorBody.parse(response.json()).code).toMatch(/^(instrument|definition)_not_found$/);
  });

  it("404 for an instrument id that does not exist", async () => {
    const { coordinator } = await signedIn();
    const response = await api.request("GET", definitionUrl(101, 2_000_000_000, "ham-d-17"), {
      token: coordinator,
    });
    expect(response.statusCode).toBe(404);
  });

  it("403 for a study the user has no permission in, whether it exists or not", async () => {
    const { staff3 } = await signedIn();
    const id = await idOf(102, "ham-d-17");
    for (const url of [definitionUrl(102, id, "ham-d-17"), definitionUrl(999, id, "ham-d-17")]) {
      const response = await api.request("GET", url, { token: staff3 });
      expect(response.statusCode).toBe(403);
      expect(errorBody.parse(response.json()).code).toBe("study_forbidden");
    }
  });

  it("400 naming the field for an instrument id that is not a number", async () => {
    const { coordinator } = await signedIn();
    const response = await api.request("GET", definitionUrl(101, "abc", "ham-d-17"), { token: coordinator });
    expect(response.statusCode).toBe(400);
    expect(errorBody.parse(response.json()).message).toContain("instrumentId");
  });

  it("401 without a token", async () => {
    const id = await idOf(101, "ham-d-17");
    expect((await api.request("GET", definitionUrl(101, id, "ham-d-17"))).statusCode).toBe(401);
  });
});
