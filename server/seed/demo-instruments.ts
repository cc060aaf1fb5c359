/**
 * The demo's instruments and their deliveries: in every study, HAM-D 17 and CGI-S (clinician
 * rated), a persistent adverse-event review, a sleep review shown only at specific times of day,
 * a persistent "kitchen sink" that shows every question type, and an announcement; every
 * participant gets a realistic mix of completed, expired and open instances, dated relative to
 * the moment of seeding. CGI-S may be administered by Clinical Coordinators (16) only, so staff1
 * (Clinical Staff Level 1) sees it locked.
 *
 * Each clinician instrument gets version 1 of its definition from instruments/<slug>.json; the
 * kitchen sink's is served as a zip, the others as JSON, so both ways of the definition call run.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Database } from "../db/client.ts";
import {
  instrumentDefinitions,
  instrumentInstances,
  instruments,
  type DefinitionServedAs,
  type InstrumentMetadata,
} from "../db/schema.ts";
import { INSTRUMENT_TYPE } from "../../core/contracts/instrument-lists.ts";
import { ROLE_CODE } from "../../core/contracts/roles.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

type DemoInstrument = {
  key: "hamd" | "cgis" | "adverse" | "sleep" | "kitchen" | "announcement";
  name: string;
  displayName: string;
  slug: string;
  instrumentType: typeof INSTRUMENT_TYPE.clinician | typeof INSTRUMENT_TYPE.announcement;
  permissions?: string[];
  visibleDays: number;
  metadata: InstrumentMetadata;
  /** How its definition (instruments/<slug>.json) is served; announcements have none. */
  definition?: DefinitionServedAs;
};

const DEFINITIONS_DIRECTORY = path.join(path.dirname(fileURLToPath(import.meta.url)), "instruments");

/** A demo definition file as written: stored as is, served with its version number. */
export function readDemoDefinition(slug: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(DEFINITIONS_DIRECTORY, `${slug}.json`), "utf8")) as Record<
    string,
    unknown
  >;
}

export const DEMO_INSTRUMENTS: DemoInstrument[] = [
  {
    key: "hamd",
    name: "Hamilton Depression Rating Scale (17 items)",
    displayName: "HAM-D 17",
    slug: "ham-d-17",
    instrumentType: INSTRUMENT_TYPE.clinician,
    visibleDays: 7,
    metadata: { display_name: "HAM-D 17", schedule: { recurring: { scheme: "weekly" } } },
    definition: "json",
  },
  {
    key: "cgis",
    name: "Clinical Global Impression - Severity",
    displayName: "CGI-S",
    slug: "cgi-s",
    instrumentType: INSTRUMENT_TYPE.clinician,
    permissions: [ROLE_CODE.clinicalCoordinator],
    visibleDays: 7,
    metadata: { display_name: "CGI-S", schedule: { recurring: { scheme: "weekly" } } },
    definition: "json",
  },
  {
    key: "adverse",
    name: "Adverse Events Review",
    displayName: "Adverse Events Review",
    slug: "adverse-events-review",
    instrumentType: INSTRUMENT_TYPE.clinician,
    visibleDays: 1,
    metadata: { display_name: "Adverse Events Review", schedule: { recurring: { scheme: "persistent" } } },
    definition: "json",
  },
  {
    key: "sleep",
    name: "Sleep Diary Review",
    displayName: "Sleep Diary Review",
    slug: "sleep-diary-review",
    instrumentType: INSTRUMENT_TYPE.clinician,
    visibleDays: 1,
    metadata: {
      display_name: "Sleep Diary Review",
      visibility: "specific_time",
      visibilityRanges: [{ start: "6:00", end: "22:00" }],
    },
    definition: "json",
  },
  {
    key: "kitchen",
    name: "Kitchen sink (all question types)",
    displayName: "Kitchen sink (all question types)",
    slug: "kitchen-sink",
    instrumentType: INSTRUMENT_TYPE.clinician,
    visibleDays: 1,
    metadata: {
      display_name: "Kitchen sink (all question types)",
      schedule: { recurring: { scheme: "persistent" } },
    },
    definition: "zip",
  },
  {
    key: "announcement",
    name: "Visit schedule update",
    displayName: "Visit schedule update",
    slug: "visit-schedule-update",
    instrumentType: INSTRUMENT_TYPE.announcement,
    visibleDays: 1,
    metadata: {
      display_name: "Visit schedule update",
      // Its text: where the newer architecture shows it, the inbox opens it.
      content:
        "<p>From next week, study visits start at <strong>8:30</strong> instead of 9:00, so that the HAM-D 17 and the CGI-S are done before the participant's lab work.</p><p>Please tell your participants at their next visit.</p>",
    },
  },
];

/**
 * Seeds the instruments of one study and the instances of its participants. `completers` are
 * user ids of clinicians of the study (the first one is the coordinator).
 */
export async function seedDemoInstruments(
  tx: Tx,
  studyId: number,
  participantIds: number[],
  completers: number[],
  /** Whether the participant at this index may have been rated (consent first, demo-consents.ts). */
  mayBeRated: (index: number) => boolean = () => true,
  now = Date.now(),
) {
  const created = await tx
    .insert(instruments)
    .values(
      DEMO_INSTRUMENTS.map((instrument) => ({
        studyId,
        name: instrument.name,
        displayName: instrument.displayName,
        instrumentType: instrument.instrumentType,
        slug: instrument.slug,
        permissions: instrument.permissions,
        visibleDays: instrument.visibleDays,
        metadata: instrument.metadata,
      })),
    )
    .returning({ id: instruments.id });
  const idOf = Object.fromEntries(
    DEMO_INSTRUMENTS.map((instrument, index) => [instrument.key, created[index]!.id]),
  ) as Record<DemoInstrument["key"], number>;
  const definitions = DEMO_INSTRUMENTS.flatMap((instrument) =>
    instrument.definition
      ? [
          {
            instrumentId: idOf[instrument.key],
            versionNumber: 1,
            definition: readDemoDefinition(instrument.slug),
            servedAs: instrument.definition,
          },
        ]
      : [],
  );
  await tx.insert(instrumentDefinitions).values(definitions);
  const at = (offsetMs: number) => new Date(now + offsetMs);
  const coordinator = completers[0]!;
  const completer = (index: number) => completers[index % completers.length]!;

  const rows: (typeof instrumentInstances.$inferInsert)[] = [];
  participantIds.forEach((participantId, index) => {
    const instance = (
      key: DemoInstrument["key"],
      startMs: number,
      expirationMs: number | null,
      wanted?: { atMs: number; by: number },
    ) => {
      // A participant whose required consent is not complete has never been rated.
      const completion = mayBeRated(index) ? wanted : undefined;
      rows.push({
        instrumentId: idOf[key],
        participantId,
        startDate: at(startMs),
        expiration: expirationMs === null ? null : at(expirationMs),
        completion: completion ? at(completion.atMs) : null,
        whoCompleted: completion?.by ?? null,
      });
    };
    // HAM-D 17, weekly: four weeks ago (every fifth participant missed it), two weeks ago (every
    // fourth missed it), and this week's, which every sixth participant has already done.
    instance(
      "hamd",
      -28 * DAY_MS,
      -21 * DAY_MS,
      index % 5 === 0
        ? undefined
        : {
            atMs: -27 * DAY_MS + 3 * HOUR_MS,
            by: completer(index),
          },
    );
    instance(
      "hamd",
      -14 * DAY_MS,
      -7 * DAY_MS,
      index % 4 === 3
        ? undefined
        : {
            atMs: -13 * DAY_MS + 2 * HOUR_MS,
            by: completer(index + 1),
          },
    );
    instance(
      "hamd",
      -1 * DAY_MS,
      6 * DAY_MS,
      index % 6 === 5 ? { atMs: -2 * HOUR_MS, by: coordinator } : undefined,
    );
    // CGI-S (coordinators only): done two weeks ago, open this week.
    instance("cgis", -14 * DAY_MS, -7 * DAY_MS, { atMs: -13 * DAY_MS + 4 * HOUR_MS, by: coordinator });
    instance("cgis", -3 * HOUR_MS, 7 * DAY_MS);
    // Persistent: shown until completed, long after its visible window.
    instance("adverse", -30 * DAY_MS, null);
    // Shown only between 6:00 and 22:00 local time.
    instance("sleep", -1 * HOUR_MS, 1 * DAY_MS);
    // Persistent and never expiring: always in the to-do list, to try every question type.
    instance("kitchen", -30 * DAY_MS, null);
    instance("announcement", -5 * DAY_MS, null);
  });
  await tx.insert(instrumentInstances).values(rows);
}
