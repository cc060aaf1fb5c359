/**
 * isoTime writes a timestamp exactly as Date#toISOString does, whatever the driver handed it:
 * PostgreSQL's text (postgres.js), rewritten without a Date, or a Date (PGlite).
 */
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { isoTime } from "./iso-time.ts";

const viaDate = (text: string) => new Date(text).toISOString();

/** PostgreSQL's output of a UTC timestamptz: the fraction's trailing zeros dropped, none if whole. */
function postgresText(milliseconds: number, microseconds: number) {
  const iso = new Date(milliseconds).toISOString();
  const fraction = `${iso.slice(20, 23)}${String(microseconds).padStart(3, "0")}`.replace(/0+$/, "");
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ""}+00`;
}

describe("isoTime", () => {
  it("writes PostgreSQL's UTC text as Date would, for every length of fraction", () => {
    const texts = [
      "2026-11-28 23:16:11+00",
      "2026-11-28 23:16:11.5+00",
      "2026-11-28 23:16:11.05+00",
      "2026-11-28 23:16:11.851+00",
      "2026-11-28 23:16:11.8519+00",
      "2026-11-28 23:16:11.999999+00",
      "2024-02-29 00:00:00.000001+00",
      "1969-12-31 23:59:59.999+00",
      "1000-01-01 00:00:00+00",
    ];
    for (let index = 0; index < 2_000; index += 1) {
      texts.push(postgresText(-2e12 + index * 2_345_678_901.7, (index * 37) % 1000));
    }
    for (const text of texts) expect(isoTime(text), text).toBe(viaDate(text));
  });

  it("cuts a fraction past milliseconds off, as Date does, never rounding it up", () => {
    expect(isoTime("2026-12-31 23:59:59.9999+00")).toBe("2026-12-31T23:59:59.999Z");
  });

  it("keeps a year under 100 as written, where Date's parse of that text reads 0001 as 2001", () => {
    expect(isoTime("0001-01-01 00:00:00+00")).toBe("0001-01-01T00:00:00.000Z");
  });

  it("leaves any other text to Date: another zone, an ISO text, a five-digit year", () => {
    for (const text of [
      "2026-11-28 23:16:11.25+05:30",
      "2026-11-28 18:16:11-05",
      "2026-11-28T23:16:11.250Z",
      "10000-01-01 00:00:00+00",
    ]) {
      expect(isoTime(text), text).toBe(viaDate(text));
    }
  });

  it("writes a Date as its own ISO text, and null as null", () => {
    const date = new Date("2026-11-28T23:16:11.851Z");
    expect(isoTime(date)).toBe("2026-11-28T23:16:11.851Z");
    expect(isoTime(null)).toBeNull();
  });
});

const databaseUrl = process.env.TEST_DATABASE_URL || undefined;

describe.skipIf(!databaseUrl)(
  databaseUrl
    ? "isoTime of PostgreSQL's own text"
    : "isoTime of PostgreSQL's own text (skipped: TEST_DATABASE_URL is not set)",
  () => {
    it("writes what PostgreSQL sends for a timestamptz as Date would, as the server's driver reads it", async () => {
      // As text, as the server's driver reads a timestamptz (Drizzle sets postgres.js so), in a
      // session in UTC (the server's database default).
      const sql = postgres(databaseUrl!, { max: 1, onnotice: () => {}, connection: { TimeZone: "UTC" } });
      try {
        const rows = await sql.unsafe<{ at: string }[]>(
          `select (timestamptz '1990-01-01 00:00:00+00'
                   + make_interval(secs => n * 7919.123457)
                   + make_interval(secs => (n % 7) * 0.0000013))::text as at
           from generate_series(0, 2000) as n`,
        );
        expect(rows.length).toBe(2001);
        expect(rows.some((row) => /\.\d{6}\+00$/.test(row.at))).toBe(true);
        for (const { at } of rows) expect(isoTime(at), at).toBe(viaDate(at));
      } finally {
        await sql.end({ timeout: 5 });
      }
    });
  },
);
