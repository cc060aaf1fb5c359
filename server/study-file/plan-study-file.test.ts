import { describe, expect, it } from "vitest";
import { metadataWith, scheduleOf } from "./instrument-schedule.ts";
import { describeChange, planStudyFile, sameJson } from "./plan-study-file.ts";
import { parseStudyFileText } from "./read-study-file.ts";
import { studyFileSchema } from "./study-file-schema.ts";
import type { InstrumentState, StudyState } from "./study-state.ts";
import type { InstrumentSpec, StudySpec } from "./study-spec.ts";

const DEFINITION = { id: "scale", type: "CLINRO", order: [], questions: {} };

const instrumentSpec = (change: Partial<InstrumentSpec> = {}): InstrumentSpec => ({
  slug: "scale",
  name: "Scale",
  displayName: "Scale",
  permissions: ["16", "11"],
  schedule: { startOffsetDays: 0, visibleDays: 1, persistent: false, specificTimes: [] },
  definition: { json: DEFINITION, servedAs: "json", source: "scale.json" },
  ...change,
});

const spec = (change: Partial<StudySpec> = {}): StudySpec => ({
  study: {
    id: 7,
    name: "Study",
    newConsentEnabled: false,
    smsEnabled: false,
    virtualVisits: false,
    instrumentArchitectureVersion: 1,
    greeting: undefined,
  },
  sites: [{ id: 71, label: "Site", treeLevel: 4, virtual: false }],
  instruments: [instrumentSpec()],
  consents: [],
  ...change,
});

const instrumentRow = (change: Partial<InstrumentState> = {}): InstrumentState => ({
  id: 1,
  studyId: 7,
  name: "Scale",
  displayName: "Scale",
  instrumentType: "CLINRO",
  slug: "scale",
  permissions: ["11", "16"],
  visibleDays: 1,
  startOffsetDays: 0,
  retiredAt: null,
  metadata: { display_name: "Scale" },
  createdAt: new Date(0),
  latest: {
    definition: { questions: {}, order: [], type: "CLINRO", id: "scale" },
    servedAs: "json",
    versionNumber: 1,
  },
  ...change,
});

const state = (change: Partial<StudyState> = {}): StudyState => ({
  study: { id: 7, name: "Study", smsEnabled: false, newConsentEnabled: false, config: {} },
  sites: [{ id: 71, studyId: 7, label: "Site", treeLevel: 4, isVirtual: false, retiredAt: null }],
  foreignSites: [],
  instruments: [instrumentRow()],
  consents: [],
  ...change,
});

const lines = (file: StudySpec, current: StudyState) =>
  planStudyFile(file, current).changes.map((change) => describeChange(change, file));

describe("the study file's plan", () => {
  it("is empty when the database matches, whatever the order of permissions and of definition keys", () => {
    expect(planStudyFile(spec(), state())).toEqual({ studyId: 7, changes: [], issues: [] });
  });

  it("reads a study config without its keys as the defaults", () => {
    const current = state({
      study: { id: 7, name: "Study", smsEnabled: false, newConsentEnabled: false, config: {} },
    });
    expect(lines(spec(), current)).toEqual([]);
    expect(lines(spec({ study: { ...spec().study, virtualVisits: true, greeting: "Hi" } }), current)).toEqual(
      ["update study 7: virtual_visits false -> true, greeting none -> 'Hi'"],
    );
  });

  it("never retires or changes an announcement, and refuses a slug that is one", () => {
    const announcement = instrumentRow({
      id: 2,
      slug: "news",
      instrumentType: "ANNOUNCEMENT",
      latest: undefined,
    });
    expect(lines(spec(), state({ instruments: [instrumentRow(), announcement] }))).toEqual([]);
    const plan = planStudyFile(
      spec({ instruments: [instrumentSpec(), instrumentSpec({ slug: "news" })] }),
      state({ instruments: [instrumentRow(), announcement] }),
    );
    expect(plan.issues).toEqual([
      {
        path: ["instruments", 1, "slug"],
        message: '"news" is an announcement of study 7, not a clinician instrument',
      },
    ]);
  });

  it("brings back a retired instrument and updates it in the same apply", () => {
    const current = state({ instruments: [instrumentRow({ retiredAt: new Date(0), visibleDays: 3 })] });
    expect(lines(spec(), current)).toEqual([
      "bring back instrument scale",
      "update instrument scale: visible_days 3 -> 1",
    ]);
  });

  it("makes a new definition version when the definition or the way it is served changes", () => {
    const zipped = instrumentSpec({ definition: { json: DEFINITION, servedAs: "zip", source: "scale.zip" } });
    expect(lines(spec({ instruments: [zipped] }), state())).toEqual([
      "update instrument scale: new definition version 2 from scale.zip",
    ]);
  });

  it("leaves alone a consent that no definition names (made before imports named them)", () => {
    const legacy = {
      id: 5,
      studyId: 7,
      title: "Old consent",
      type: "CONSENT",
      version: 1,
      dateDeployed: new Date(0),
      definitionKey: null,
      retiredAt: null,
      latest: undefined,
    };
    expect(lines(spec(), state({ consents: [legacy] }))).toEqual([]);
  });
});

describe("an instrument's schedule in its metadata", () => {
  it("writes persistent and specific times and keeps every other key", () => {
    const current = {
      display_name: "Old",
      custom: 1,
      schedule: { recurring: { scheme: "weekly", every: 2 } },
    };
    const next = metadataWith(
      current,
      {
        startOffsetDays: 0,
        visibleDays: 1,
        persistent: true,
        specificTimes: [{ start: "6:00", end: "22:00" }],
      },
      "New",
    );
    expect(next).toEqual({
      display_name: "New",
      custom: 1,
      schedule: { recurring: { scheme: "persistent", every: 2 } },
      visibility: "specific_time",
      visibilityRanges: [{ start: "6:00", end: "22:00" }],
    });
    const back = metadataWith(
      next,
      { startOffsetDays: 0, visibleDays: 1, persistent: false, specificTimes: [] },
      "New",
    );
    expect(back).toEqual({ display_name: "New", custom: 1, schedule: { recurring: { every: 2 } } });
    expect(scheduleOf({ startOffsetDays: 2, visibleDays: 5, metadata: back })).toEqual({
      startOffsetDays: 2,
      visibleDays: 5,
      persistent: false,
      specificTimes: [],
    });
  });

  it("keeps a scheme other than persistent when the file says not persistent", () => {
    const weekly = { schedule: { recurring: { scheme: "weekly" } } };
    const schedule = { startOffsetDays: 0, visibleDays: 7, persistent: false, specificTimes: [] };
    expect(metadataWith(weekly, schedule, "Scale")).toEqual({ display_name: "Scale", ...weekly });
  });
});

describe("sameJson", () => {
  it.each([
    { a: { x: 1, y: [1, { b: 2, a: 1 }] }, b: { y: [1, { a: 1, b: 2 }], x: 1 }, same: true },
    { a: { x: 1 }, b: { x: 1, y: undefined }, same: true },
    { a: [1, 2], b: [2, 1], same: false },
    { a: { x: "1" }, b: { x: 1 }, same: false },
  ])("says $same for $a and $b", ({ a, b, same }) => {
    expect(sameJson(a, b)).toBe(same);
  });
});

describe("the study file's format", () => {
  it("fills in every default, an empty YAML value being the field left out", () => {
    const text = [
      "study: { id: 7, name: Study }",
      "sites: [{ id: 71, label: Site }]",
      "instruments:",
      "  - { slug: scale, definition: scale.json, schedule: }",
      "consents:",
    ].join("\n");
    expect(studyFileSchema.parse(parseStudyFileText(text, "study.yaml"))).toEqual({
      format: 1,
      study: {
        id: 7,
        name: "Study",
        new_consent_enabled: false,
        sms_enabled: false,
        virtual_visits: false,
        instrument_architecture_version: 1,
      },
      sites: [{ id: 71, label: "Site", tree_level: 4, virtual: false }],
      instruments: [
        {
          slug: "scale",
          definition: "scale.json",
          permissions: ["16", "11", "12", "13"],
          schedule: { start_offset_days: 0, visible_days: 1, persistent: false, specific_times: [] },
        },
      ],
      consents: [],
    });
  });
});
