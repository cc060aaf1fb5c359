/**
 * A study file once read and checked: what the study should be, with every default filled in and
 * every definition loaded and validated. The plan compares it with the database's state.
 */
import type { DefinitionServedAs } from "../db/schema.ts";
import type { ImportFormat, ImportReportEntry } from "../instrument-import/imported-instrument.ts";

export type TimeWindow = { start: string; end: string };

export type StudySettings = {
  id: number;
  name: string;
  newConsentEnabled: boolean;
  smsEnabled: boolean;
  virtualVisits: boolean;
  instrumentArchitectureVersion: number;
  /** Absent: no greeting. */
  greeting: string | undefined;
};

export type SiteSpec = { id: number; label: string; treeLevel: number; virtual: boolean };

export type ScheduleSpec = {
  startOffsetDays: number;
  visibleDays: number;
  persistent: boolean;
  specificTimes: TimeWindow[];
};

export type InstrumentDefinitionSpec = {
  /** The definition as written: stored as is, like `clinro instrument import` stores a file. */
  json: Record<string, unknown>;
  servedAs: DefinitionServedAs;
  /** The file it came from (as the study file names it), or "inline". */
  source: string;
  /** The standard the file was read from (absent: the portal's own JSON), and what it did not carry. */
  imported?: { format: ImportFormat; report: ImportReportEntry[] } | undefined;
};

export type InstrumentSpec = {
  slug: string;
  name: string;
  displayName: string;
  permissions: string[];
  schedule: ScheduleSpec;
  definition: InstrumentDefinitionSpec;
};

export type ConsentSpec = {
  /** The definition's id: names the consent in the study. */
  key: string;
  title: string;
  /** The definition's consent_version, when it says one. */
  declaredVersion: number | undefined;
  json: Record<string, unknown>;
  source: string;
};

export type StudySpec = {
  study: StudySettings;
  sites: SiteSpec[];
  instruments: InstrumentSpec[];
  consents: ConsentSpec[];
};
