/**
 * The study file's format (docs/study-file.md describes it for the people who write one): one
 * study, its sites, its clinician instruments with their schedules and its consents. Field names
 * are snake_case as written in YAML or JSON; every default is filled in here, so a parsed file
 * says everything apply needs. Messages are written to follow a path
 * (`sites[1].tree_level: must be a whole number`).
 */
import { z } from "zod";
import { DEFAULT_INSTRUMENT_ARCHITECTURE_VERSION } from "../../core/contracts/instrument-architecture.ts";
import { DEFAULT_FORM_PERMISSIONS, DEFAULT_VISIBLE_DAYS } from "../../core/contracts/instrument-lists.ts";
import { MAX_ID } from "../../core/contracts/input-bounds.ts";
import { CLINICIAN_ROLE_CODES } from "../../core/contracts/roles.ts";
import { IMPORT_FORMATS } from "../instrument-import/imported-instrument.ts";
import { SLUG_PATTERN } from "../instruments/import-instrument.ts";

/** The only format version so far; a later format will say its own number. */
export const STUDY_FILE_FORMAT = 1;
/** A new site's tree level when the file does not say: the level the study list offers. */
export const DEFAULT_TREE_LEVEL = 4;
const NAME_MAX_LENGTH = 200;
const GREETING_MAX_LENGTH = 500;
const DAYS_MAX = 3650;
const TREE_LEVEL_MAX = 10;
const ARCHITECTURE_VERSION_MAX = 100;

/** "is required" when the field is missing, else what it must be. */
const expected = (what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? "is required" : `must be ${what}`;

const wholeNumber = (min: number, max: number) =>
  z
    .number({ error: expected("a whole number") })
    .int({ error: "must be a whole number" })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` });

const flag = () => z.boolean({ error: expected("true or false") });

const text = (maxLength: number) =>
  z
    .string({ error: expected("text") })
    .trim()
    .min(1, { error: "must not be empty" })
    .max(maxLength, { error: `must be at most ${maxLength} characters` });

const id = () => wholeNumber(1, MAX_ID);

/** Local time of day, h:mm on a 24-hour clock, as the instrument lists read it. */
export const TIME_OF_DAY = /^([01]?\d|2[0-3]):[0-5]\d$/;

const timeWindow = z.strictObject(
  {
    start: z
      .string({ error: expected("a time of day h:mm") })
      .regex(TIME_OF_DAY, { error: "must be a time of day h:mm, from 0:00 to 23:59" }),
    end: z
      .string({ error: expected("a time of day h:mm") })
      .regex(TIME_OF_DAY, { error: "must be a time of day h:mm, from 0:00 to 23:59" }),
  },
  { error: expected("a time window with start and end") },
);

/** A definition: a file path relative to the study file, or the definition itself (inline). */
const definitionSource = z.union([z.string().trim().min(1), z.record(z.string(), z.unknown())], {
  error: expected("a file path or a definition written inline"),
});

const roleCode = z.preprocess(
  (value) => (typeof value === "number" ? String(value) : value),
  z.enum(CLINICIAN_ROLE_CODES as [string, ...string[]], {
    error: `must be a clinician role code: ${CLINICIAN_ROLE_CODES.join(", ")}`,
  }),
);

const list = <T extends z.ZodType>(item: T) => z.array(item, { error: expected("a list") });

/** An empty YAML value (`instruments:` with nothing after it) is the field left out. */
const emptyAsMissing = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === null ? undefined : value), schema);

const DEFAULT_SCHEDULE = {
  start_offset_days: 0,
  visible_days: DEFAULT_VISIBLE_DAYS,
  persistent: false,
  specific_times: [] as { start: string; end: string }[],
};

const schedule = z.strictObject(
  {
    start_offset_days: wholeNumber(0, DAYS_MAX).default(DEFAULT_SCHEDULE.start_offset_days),
    visible_days: wholeNumber(1, DAYS_MAX).default(DEFAULT_SCHEDULE.visible_days),
    persistent: flag().default(DEFAULT_SCHEDULE.persistent),
    specific_times: emptyAsMissing(list(timeWindow).default([])),
  },
  { error: expected("a schedule (start_offset_days, visible_days, persistent, specific_times)") },
);

const site = z.strictObject(
  {
    id: id(),
    label: text(NAME_MAX_LENGTH),
    tree_level: wholeNumber(1, TREE_LEVEL_MAX).default(DEFAULT_TREE_LEVEL),
    virtual: flag().default(false),
  },
  { error: expected("a site (id, label, tree_level, virtual)") },
);

const instrument = z.strictObject(
  {
    slug: z.string({ error: expected("a slug") }).regex(SLUG_PATTERN, {
      error: "must be 1 to 100 lower-case letters, digits, - and _, starting with a letter or digit",
    }),
    name: text(NAME_MAX_LENGTH).optional(),
    display_name: text(NAME_MAX_LENGTH).optional(),
    definition: definitionSource,
    served_as: z.enum(["json", "zip"], { error: "must be json or zip" }).optional(),
    /** The standard the definition file is written in; absent: the portal's own JSON. */
    format: z.enum(IMPORT_FORMATS, { error: `must be ${IMPORT_FORMATS.join(", ")}` }).optional(),
    /** REDCap: the form to take from a dictionary holding several (default: the first). */
    form: text(NAME_MAX_LENGTH).optional(),
    permissions: list(roleCode)
      .min(1, { error: "must name at least one role" })
      .default([...DEFAULT_FORM_PERMISSIONS]),
    schedule: emptyAsMissing(schedule.default({ ...DEFAULT_SCHEDULE, specific_times: [] })),
  },
  { error: expected("an instrument (slug, definition, ...)") },
);

const consent = z.strictObject(
  { definition: definitionSource },
  { error: expected("a consent (definition)") },
);

export const studyFileSchema = z.strictObject(
  {
    format: z
      .literal(STUDY_FILE_FORMAT, { error: `must be ${STUDY_FILE_FORMAT}, the only format so far` })
      .default(STUDY_FILE_FORMAT),
    study: z.strictObject(
      {
        id: id(),
        name: text(NAME_MAX_LENGTH),
        new_consent_enabled: flag().default(false),
        sms_enabled: flag().default(false),
        virtual_visits: flag().default(false),
        instrument_architecture_version: wholeNumber(1, ARCHITECTURE_VERSION_MAX).default(
          DEFAULT_INSTRUMENT_ARCHITECTURE_VERSION,
        ),
        greeting: text(GREETING_MAX_LENGTH).optional(),
      },
      { error: expected("the study (id, name, ...)") },
    ),
    sites: list(site).min(1, { error: "a study needs at least one site" }),
    instruments: emptyAsMissing(list(instrument).default([])),
    consents: emptyAsMissing(list(consent).default([])),
  },
  { error: "must be a study file: a mapping with study, sites, instruments and consents" },
);

export type StudyFile = z.infer<typeof studyFileSchema>;
