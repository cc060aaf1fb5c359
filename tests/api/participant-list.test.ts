/**
 * GET /control/studies/{studyId}/sites/{siteId}/participants: a site's participants, sorted and
 * paged by keyset.
 */
import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { errorBody } from "../../core/contracts/errors.ts";
import {
  PARTICIPANT_LIST_DEFAULT_LIMIT,
  PARTICIPANT_LIST_MAX_LIMIT,
  participantListResponse,
  type ParticipantListRow,
} from "../../core/contracts/participant-list.ts";
import { participants } from "../../server/db/schema.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";

const numerically = (a: number, b: number) => a - b;
const list = (studyId: number | string, siteId: number | string, query = "") =>
  `/control/studies/${studyId}/sites/${siteId}/participants${query ? `?${query}` : ""}`;

/**
 * Made by this file at Boston (101/1011), beside the demo's participants there: names that tie
 * (same last name, same last and first name but for case) and blank subject ids, so that the
 * order's tie-breakers are what pages must follow. Inserted out of order.
 */
const FIXTURES: (typeof participants.$inferInsert)[] = Array.from({ length: 37 }, (_, index) => {
  const n = (index * 17) % 37;
  return {
    studyId: 101,
    siteId: 1011,
    fname: n % 2 === 0 ? "Paging" : "paging",
    lname: n % 3 === 0 ? "Zzkeyset" : n % 3 === 1 ? "zzKeyset" : "Aakeyset",
    subjectId: n % 5 === 0 ? "" : `LIST-${String(n).padStart(3, "0")}`,
    dateOfBirth: n % 4 === 0 ? null : "1980-02-03",
  };
});

describeOnEachDatabase("GET /control/studies/:studyId/sites/:siteId/participants", (api) => {
  let tokens: Promise<{ staff1: string }> | undefined;
  const signedIn = () => (tokens ??= (async () => ({ staff1: await api.signIn("staff1@demo.test") }))());
  const get = async (url: string) => {
    const { staff1 } = await signedIn();
    return api.request("GET", url, { token: staff1 });
  };
  const page = async (query: string, studyId = 101, siteId = 1011) => {
    const response = await get(list(studyId, siteId, query));
    expect(response.statusCode, response.body).toBe(200);
    return participantListResponse.parse(response.json());
  };
  /** Every page, in turn, of one sort and order. */
  const allPages = async (sort: string, order: string, limit: number) => {
    const pages = [await page(`sort=${sort}&order=${order}&limit=${limit}`)];
    while (pages.at(-1)!.next_cursor !== null) {
      const cursor = pages.at(-1)!.next_cursor!;
      pages.push(await page(`sort=${sort}&order=${order}&limit=${limit}&cursor=${cursor}`));
    }
    return pages;
  };
  let site: { id: number; fname: string; lname: string; subjectId: string }[] = [];

  beforeAll(async () => {
    await api.db.insert(participants).values(FIXTURES);
    site = await api.db
      .select({
        id: participants.id,
        fname: participants.fname,
        lname: participants.lname,
        subjectId: participants.subjectId,
      })
      .from(participants)
      .where(and(eq(participants.studyId, 101), eq(participants.siteId, 1011)));
    expect(site.length).toBeGreaterThan(FIXTURES.length);
  });

  // The order of the pages is checked twice: against the database's own order of the whole site
  // in one query (its collation for text), and against what the contract states of ties.
  it("answers the first page with the site's total and a cursor for the next", async () => {
    const first = await page("");
    expect(first.participants).toHaveLength(Math.min(PARTICIPANT_LIST_DEFAULT_LIMIT, site.length));
    expect(first.total).toBe(site.length);
    expect(first.next_cursor).not.toBeNull();
    const [row] = first.participants;
    expect(Object.keys(row!).sort()).toEqual(
      ["date_of_birth", "enrolled_at", "fname", "id", "lname", "subject_id"].sort(),
    );
    // Each field as stored: the date of birth as the date it is, the enrolment time as ISO 8601.
    const [stored] = await api.db
      .select({ dateOfBirth: participants.dateOfBirth, enrolledAt: participants.enrolledAt })
      .from(participants)
      .where(eq(participants.id, row!.id));
    expect(row!.date_of_birth).toBe(stored!.dateOfBirth);
    expect(row!.enrolled_at).toBe(stored!.enrolledAt!.toISOString());
    expect(row!.enrolled_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  for (const sort of ["last_name", "subject_id", "enrolled"] as const) {
    for (const order of ["asc", "desc"] as const) {
      it(`pages through every participant exactly once, in ${sort} ${order} order`, async () => {
        const pages = await allPages(sort, order, 7);
        const rows = pages.flatMap((one) => one.participants);
        // Every participant of the site exactly once, none of another site.
        expect(rows.map((row) => row.id).sort(numerically)).toEqual(
          site.map((row) => row.id).sort(numerically),
        );
        expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
        // Full pages but the last; the total only on the first; no cursor after the last.
        expect(pages.slice(0, -1).every((one) => one.participants.length === 7)).toBe(true);
        expect(pages.at(-1)!.participants.length).toBeGreaterThan(0);
        expect(pages[0]!.total).toBe(site.length);
        expect(pages.slice(1).every((one) => one.total === null)).toBe(true);
        // In order: the database's own order of the whole site, asked in one query.
        const expected = await wholeSiteOrder(sort, order);
        expect(rows.map((row) => row.id)).toEqual(expected);
        // And the order the contract states, for what it says plainly.
        assertOrdered(rows, sort, order);
      });
    }
  }

  async function wholeSiteOrder(sort: string, order: string) {
    const direction = order === "asc" ? asc : desc;
    const keys =
      sort === "last_name"
        ? [sql`lower(${participants.lname})`, sql`lower(${participants.fname})`, sql`${participants.id}`]
        : sort === "subject_id"
          ? [sql`${participants.subjectId}`, sql`${participants.id}`]
          : [sql`${participants.id}`];
    const rows = await api.db
      .select({ id: participants.id })
      .from(participants)
      .where(and(eq(participants.studyId, 101), eq(participants.siteId, 1011)))
      .orderBy(...keys.map((key) => direction(key)));
    return rows.map((row) => row.id);
  }

  function assertOrdered(rows: ParticipantListRow[], sort: string, order: string) {
    const sign = order === "asc" ? 1 : -1;
    for (let index = 1; index < rows.length; index++) {
      const [a, b] = [rows[index - 1]!, rows[index]!];
      if (sort === "enrolled") expect(sign * (b.id - a.id)).toBeGreaterThan(0);
      if (sort === "last_name" && a.lname.toLowerCase() === b.lname.toLowerCase()) {
        if (a.fname.toLowerCase() === b.fname.toLowerCase()) expect(sign * (b.id - a.id)).toBeGreaterThan(0);
      }
      if (sort === "subject_id" && a.subject_id === b.subject_id)
        expect(sign * (b.id - a.id)).toBeGreaterThan(0);
    }
    if (sort === "subject_id") {
      // Blank subject ids (screening) come first going up, last going down.
      const blanks = rows.map((row) => row.subject_id === "");
      const firstFilled = blanks.indexOf(false);
      const lastBlank = blanks.lastIndexOf(true);
      if (order === "asc") expect(lastBlank).toBeLessThan(firstFilled);
      else expect(blanks.indexOf(true)).toBeGreaterThan(blanks.lastIndexOf(false));
    }
  }

  it("answers at most limit rows, up to the largest limit", async () => {
    expect((await page("limit=1")).participants).toHaveLength(1);
    expect((await page(`limit=${PARTICIPANT_LIST_MAX_LIMIT}`)).participants).toHaveLength(
      Math.min(PARTICIPANT_LIST_MAX_LIMIT, site.length),
    );
  });

  it("answers a last page without a cursor, and a site without participants with an empty page", async () => {
    const whole = await page(`limit=${PARTICIPANT_LIST_MAX_LIMIT}&sort=enrolled`);
    if (site.length <= PARTICIPANT_LIST_MAX_LIMIT) expect(whole.next_cursor).toBeNull();
    // SCZ-214's Northern Region Office (1022) has no participants in the demo.
    const [{ total }] = (await api.db
      .select({ total: count() })
      .from(participants)
      .where(and(eq(participants.studyId, 102), eq(participants.siteId, 1022)))) as [{ total: number }];
    const empty = await page("", 102, 1022);
    expect(empty.total).toBe(total);
    if (total === 0) expect(empty).toEqual({ participants: [], total: 0, next_cursor: null });
  });

  it("keeps a participant enrolled between two pages out of the pages already read, and in the next ones", async () => {
    const first = await page("sort=enrolled&limit=3");
    const [added] = await api.db
      .insert(participants)
      .values({ studyId: 101, siteId: 1011, fname: "Late", lname: "Zzkeyset", subjectId: "LIST-LATE" })
      .returning({ id: participants.id });
    try {
      const rest: ParticipantListRow[] = [];
      let cursor = first.next_cursor;
      while (cursor !== null) {
        const next = await page(`sort=enrolled&limit=50&cursor=${cursor}`);
        rest.push(...next.participants);
        cursor = next.next_cursor;
      }
      const ids = [...first.participants, ...rest].map((row) => row.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.at(-1)).toBe(added!.id);
    } finally {
      await api.db.delete(participants).where(eq(participants.id, added!.id));
    }
  });

  it("refuses a site the user has no permission at, and a site of another study, with a 403", async () => {
    // staff1 holds MDD-301 and SCZ-214, not GAD-118 (103, Riverside 1031).
    for (const url of [list(103, 1031), list(101, 1021), list(102, 1011)]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(403);
      expect(errorBody.parse(response.json()).code).toBe("site_forbidden");
    }
  });

  it("refuses a request without a token with a 401", async () => {
    expect((await api.request("GET", list(101, 1011))).statusCode).toBe(401);
  });

  it("refuses bad input with a 400 naming the field", async () => {
    const cases: [string, string][] = [
      ["sort=age", "sort"],
      ["order=up", "order"],
      ["limit=0", "limit"],
      [`limit=${PARTICIPANT_LIST_MAX_LIMIT + 1}`, "limit"],
      ["limit=2.5", "limit"],
      ["limit=many", "limit"],
      ["cursor=", "cursor"],
      ["cursor=not%20base64", "cursor"],
      ["cursor=bm90IGpzb24", "cursor"], // "not json"
      [`cursor=${Buffer.from(JSON.stringify(["last_name", "asc", 5])).toString("base64url")}`, "cursor"],
      [`cursor=${Buffer.from(JSON.stringify(["enrolled", "asc", 0])).toString("base64url")}`, "cursor"],
      [`cursor=${Buffer.from(JSON.stringify(["enrolled", "asc", "5"])).toString("base64url")}`, "cursor"],
      [`cursor=${"A".repeat(3000)}`, "cursor"],
    ];
    for (const [query, field] of cases) {
      const response = await get(list(101, 1011, query));
      expect(response.statusCode, query).toBe(400);
      const body = errorBody.parse(response.json());
      expect(body.message, query).toContain(field);
    }
    for (const [studyId, siteId, field] of [
      ["x", 1011, "studyId"],
      [101, 0, "siteId"],
      [101, 99999999999, "siteId"],
    ] as const) {
      const response = await get(list(studyId, siteId));
      expect(response.statusCode).toBe(400);
      expect(errorBody.parse(response.json()).message).toContain(field);
    }
  });

  it("refuses a cursor answered for another sort or order, saying which it was for", async () => {
    const { next_cursor } = await page("sort=subject_id&order=desc&limit=2");
    for (const query of [`sort=last_name&order=desc`, `sort=subject_id&order=asc`]) {
      const response = await get(list(101, 1011, `${query}&cursor=${next_cursor}`));
      expect(response.statusCode).toBe(400);
      expect(errorBody.parse(response.json()).message).toContain("cursor");
      expect(errorBody.parse(response.json()).message).toContain("sort=subject_id&order=desc");
    }
  });

  it("is described in the OpenAPI document with its sort, order, limit and cursor", async () => {
    const response = await api.request("GET", "/control/openapi.json");
    const description = response.json<{
      paths: Record<string, Record<string, { operationId: string; parameters: { name: string }[] }>>;
    }>();
    const operation = description.paths["/control/studies/{studyId}/sites/{siteId}/participants"]?.get;
    expect(operation?.operationId).toBe("listParticipants");
    expect(operation?.parameters.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(["studyId", "siteId", "sort", "order", "limit", "cursor"]),
    );
  });
});
