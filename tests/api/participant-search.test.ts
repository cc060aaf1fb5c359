import { and, eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { errorBody } from "../../core/contracts/errors.ts";
import {
  SEARCH_RESULT_LIMIT,
  participantSearchResponse,
  type ParticipantSearchResult,
} from "../../core/contracts/participant.ts";
import { participants, users } from "../../server/db/schema.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";

const search = (studyId: number | string, siteId: number | string, text?: string) =>
  `/control/studies/${studyId}/sites/${siteId}/clinro_search` +
  (text === undefined ? "" : `?search_value=${encodeURIComponent(text)}`);

/** Made by this file; the demo seed's names never contain these made-up words. */
const FIXTURES: (typeof participants.$inferInsert)[] = [
  {
    studyId: 101,
    siteId: 1011,
    fname: "Odalys",
    lname: "Thistlewood",
    subjectId: "MDD-7701",
    dateOfBirth: "1975-06-01",
  },
  { studyId: 101, siteId: 1011, fname: "Bram", lname: "Marthistle", subjectId: "", dateOfBirth: null },
  { studyId: 101, siteId: 1011, fname: "thistle", lname: "Lowercase", subjectId: "MDD-7702" },
  { studyId: 101, siteId: 1011, fname: "Zyx", lname: "Qorvath", subjectId: "MDD-7703" },
  { studyId: 101, siteId: 1011, fname: "Abe", lname: "Qorvath", subjectId: "MDD-7704" },
  { studyId: 101, siteId: 1011, fname: "Mia", lname: "aqorva", subjectId: "MDD-7705" },
  { studyId: 101, siteId: 1011, fname: "Inés", lname: "De la Cruz-Ibarra", subjectId: "MDD-7706" },
  { studyId: 101, siteId: 1011, fname: "Percy", lname: "Hundred%Percent", subjectId: "MDD-7707" },
  // The same names elsewhere: never found through study 101, site 1011.
  { studyId: 101, siteId: 1012, fname: "Odalys", lname: "Thistlewaite", subjectId: "MDD-7771" },
  { studyId: 102, siteId: 1021, fname: "Odalys", lname: "Thistleton", subjectId: "MDD-7772" },
];
/** More than a search answers, all matching one word. */
const MANY = SEARCH_RESULT_LIMIT + 15;

describeOnEachDatabase("GET /control/studies/:studyId/sites/:siteId/clinro_search", (api) => {
  let tokens: Promise<{ staff1: string; staff3: string }> | undefined;
  const signedIn = () =>
    (tokens ??= (async () => ({
      staff1: await api.signIn("staff1@demo.test"),
      staff3: await api.signIn("staff3@demo.test"),
    }))());
  const find = async (text: string, studyId = 101, siteId = 1011) => {
    const { staff1 } = await signedIn();
    const response = await api.request("GET", search(studyId, siteId, text), { token: staff1 });
    expect(response.statusCode, response.body).toBe(200);
    return participantSearchResponse.parse(response.json()).response;
  };
  const names = (rows: ParticipantSearchResult[]) => rows.map((row) => `${row.fname} ${row.lname}`);

  beforeAll(async () => {
    await api.db.insert(participants).values(FIXTURES);
    await api.db.insert(participants).values(
      Array.from({ length: MANY }, (_, index) => ({
        studyId: 101,
        siteId: 1011,
        // Inserted out of order, so that the order of the answer is the query's doing.
        fname: `Many${String((index * 37) % MANY).padStart(3, "0")}`,
        lname: "Capstonewell",
      })),
    );
  });

  it("matches part of a last name, in any case, only within the study and site of the URL", async () => {
    for (const text of ["thistle", "THISTLE", "tHiStLe"]) {
      expect(names(await find(text)).sort()).toEqual([
        "Bram Marthistle",
        "Odalys Thistlewood",
        "thistle Lowercase",
      ]);
    }
  });

  it("matches part of a first name and part of a subject id", async () => {
    expect(names(await find("dalys"))).toEqual(["Odalys Thistlewood"]);
    expect(names(await find("7701"))).toEqual(["Odalys Thistlewood"]);
    expect(names(await find("mdd-770")).length).toBe(7);
  });

  it("answers each result with exactly the fields of spec section 3, subject id blank when absent", async () => {
    const [odalys] = await find("Thistlewood");
    expect(Object.keys(odalys!).sort()).toEqual(
      ["date_of_birth", "fname", "id", "lname", "site_id", "study_id", "subject_id"].sort(),
    );
    expect(odalys).toMatchObject({
      fname: "Odalys",
      lname: "Thistlewood",
      site_id: 1011,
      study_id: 101,
      subject_id: "MDD-7701",
      date_of_birth: "1975-06-01",
    });
    expect(typeof odalys!.id).toBe("number");
    const [bram] = await find("Marthistle");
    expect(bram).toMatchObject({ subject_id: "", date_of_birth: null });
  });

  it("orders results by last name, then first name, ignoring case", async () => {
    expect(names(await find("qorva"))).toEqual(["Mia aqorva", "Abe Qorvath", "Zyx Qorvath"]);
  });

  it(`answers at most ${SEARCH_RESULT_LIMIT} results, the first ones in order`, async () => {
    const rows = await find("capstonewell");
    expect(rows).toHaveLength(SEARCH_RESULT_LIMIT);
    const firstNames = rows.map((row) => row.fname);
    expect(firstNames).toEqual([...firstNames].sort());
    expect(firstNames[0]).toBe("Many000");
    expect(firstNames.at(-1)).toBe(`Many${String(SEARCH_RESULT_LIMIT - 1).padStart(3, "0")}`);
  });

  it("finds every seeded demo participant of the site with a given last name, and none of other sites", async () => {
    const site1011 = await api.db
      .select({ id: participants.id, lname: participants.lname })
      .from(participants)
      .where(and(eq(participants.studyId, 101), eq(participants.siteId, 1011)));
    const demoName = site1011.find((row) => row.lname === "Anderson" || row.lname === "Patel")?.lname;
    const lname = demoName ?? site1011[0]!.lname;
    const rows = await find(lname.toUpperCase());
    for (const row of rows) expect(row).toMatchObject({ study_id: 101, site_id: 1011 });
    const expected = site1011.filter((row) => row.lname === lname).map((row) => row.id);
    expect(rows.map((row) => row.id)).toEqual(expect.arrayContaining(expected));
  });

  it("takes the search text literally: % and _ are not wildcards", async () => {
    expect(names(await find("%"))).toEqual(["Percy Hundred%Percent"]);
    expect(names(await find("d%p"))).toEqual(["Percy Hundred%Percent"]);
    expect(await find("_")).toEqual([]);
    expect(await find("d_p")).toEqual([]);
    expect(await find("\\")).toEqual([]);
  });

  it("trims the search text and matches text with spaces inside a name", async () => {
    expect(names(await find("  thistlewood  "))).toEqual(["Odalys Thistlewood"]);
    expect(names(await find("la cruz"))).toEqual(["Inés De la Cruz-Ibarra"]);
  });

  it("finds a participant by first and last name together, each word in its own field", async () => {
    expect(names(await find("odalys thistle"))).toEqual(["Odalys Thistlewood"]);
    expect(names(await find("Thistlewood Odalys"))).toEqual(["Odalys Thistlewood"]);
    expect(await find("odalys marthistle")).toEqual([]);
  });

  it("matches words of one or two characters (too short for the trigram indexes) in every field, alone or with longer words", async () => {
    expect(names(await find("ys"))).toEqual(["Odalys Thistlewood"]);
    expect(names(await find("YS"))).toEqual(["Odalys Thistlewood"]);
    const byDigits = await find("01");
    expect(names(byDigits)).toContain("Odalys Thistlewood");
    for (const row of byDigits) expect(`${row.fname} ${row.lname} ${row.subject_id}`).toContain("01");
    expect(names(await find("ys thistle"))).toEqual(["Odalys Thistlewood"]);
    expect(names(await find("thistle ys"))).toEqual(["Odalys Thistlewood"]);
    expect(names(await find("z thistle"))).toEqual([]);
    // A short word asked before and after a longer one: each shape of the text has its own query.
    expect(names(await find("qo"))).toEqual(["Mia aqorva", "Abe Qorvath", "Zyx Qorvath"]);
  });

  it("answers an empty list when nothing matches", async () => {
    expect(await find("zzqqxxnomatch")).toEqual([]);
  });

  it("finds the same names in the other site and study only through their own URL", async () => {
    const { staff1 } = await signedIn();
    expect(names(await find("thistlew", 101, 1012))).toEqual(["Odalys Thistlewaite"]);
    const response = await api.request("GET", search(102, 1021, "thistle"), { token: staff1 });
    expect(names(participantSearchResponse.parse(response.json()).response)).toEqual(["Odalys Thistleton"]);
  });

  it.each([
    ["an empty search_value", search(101, 1011, "")],
    ["a blank search_value", search(101, 1011, "   ")],
    ["no search_value", search(101, 1011)],
  ])("answers 400 to %s, with a message naming search_value", async (_case, path) => {
    const { staff1 } = await signedIn();
    const response = await api.request("GET", path, { token: staff1 });
    expect(response.statusCode).toBe(400);
    const body = errorBody.parse(response.json());
    expect(body.message).toContain("search_value");
    expect(body.issues?.map((issue) => issue.path)).toEqual(["search_value"]);
  });

  it("answers 400 to a search_value longer than 100 characters", async () => {
    const { staff1 } = await signedIn();
    const response = await api.request("GET", search(101, 1011, "a".repeat(101)), { token: staff1 });
    expect(response.statusCode).toBe(400);
    expect(errorBody.parse(response.json()).message).toContain("search_value");
  });

  it("answers 403 with one and the same body to every study and site the user may not search, existing or not", async () => {
    const { staff1, staff3 } = await signedIn();
    const attempts = [
      { token: staff3, path: search(102, 1021, "thistle") }, // a study staff3 has no permission in
      { token: staff1, path: search(103, 1031, "thistle") }, // a study staff1 has no permission in
      { token: staff1, path: search(101, 1021, "thistle") }, // a site of another study
      { token: staff1, path: search(102, 1011, "thistle") },
      { token: staff1, path: search(101, 9999, "thistle") }, // no such site
      { token: staff1, path: search(999, 1011, "thistle") }, // no such study
    ];
    const bodies = new Set<string>();
    for (const attempt of attempts) {
      const response = await api.request("GET", attempt.path, { token: attempt.token });
      expect(response.statusCode, attempt.path).toBe(403);
      bodies.add(response.body);
    }
    expect(bodies.size).toBe(1);
    expect(errorBody.parse(JSON.parse([...bodies][0]!))).toEqual({
      message: "You do not have access to this study and site.",
      code: "site_forbidden",
    });
  });

  it("answers 400 to a bad study or site id before looking at permissions", async () => {
    const { staff1 } = await signedIn();
    for (const [path, field] of [
      [search("abc", 1011, "x"), "studyId"],
      [search(101, "-1", "x"), "siteId"],
    ] as const) {
      const response = await api.request("GET", path, { token: staff1 });
      expect(response.statusCode).toBe(400);
      expect(errorBody.parse(response.json()).message).toContain(field);
    }
  });

  it("answers 401 before anything else when there is no token", async () => {
    expect((await api.request("GET", search(101, 1011, "thistle"))).statusCode).toBe(401);
    expect((await api.request("GET", search(101, 1011))).statusCode).toBe(401);
  });

  // The search reads while its session is checked (server/auth/authenticate.ts): what it found
  // must never reach a token that no longer holds, and such a token hears 401 before anything else.
  it("answers 401 token_revoked, not the rows, once the token is signed out", async () => {
    const token = await api.signIn("staff1@demo.test");
    const before = await api.request("GET", search(101, 1011, "a"), { token });
    expect(before.statusCode).toBe(200);
    expect(participantSearchResponse.parse(before.json()).response.length).toBeGreaterThan(0);

    expect((await api.request("POST", "/control/clinro/logout", { token })).statusCode).toBe(204);
    for (const path of [
      search(101, 1011, "a"),
      // A site of no access, and input that fails validation: still the 401 first.
      search(102, 1021, "a"),
      search("abc", 1011, "a"),
      search(101, 1011, "x".repeat(101)),
    ]) {
      const after = await api.request("GET", path, { token });
      expect(after.statusCode, path).toBe(401);
      expect(errorBody.parse(after.json()), path).toEqual({
        message: "Token has been signed out",
        code: "token_revoked",
      });
    }
  });

  it("answers 401 token_invalid to a token signed before the user's password changed", async () => {
    const token = await api.signIn("staff3@demo.test");
    const [user] = await api.db.select().from(users).where(eq(users.username, "staff3@demo.test"));
    await api.db
      .update(users)
      .set({ tokenVersion: user!.tokenVersion + 1 })
      .where(eq(users.id, user!.id));
    try {
      const response = await api.request("GET", search(101, 1011, "a"), { token });
      expect(response.statusCode).toBe(401);
      expect(errorBody.parse(response.json()).code).toBe("token_invalid");
    } finally {
      await api.db.update(users).set({ tokenVersion: user!.tokenVersion }).where(eq(users.id, user!.id));
    }
  });
});
