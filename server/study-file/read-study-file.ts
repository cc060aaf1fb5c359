/**
 * Reading a study file: YAML (1.2) or JSON, checked against the format (study-file-schema.ts),
 * with every definition it names loaded (a path relative to the study file, or written inline)
 * and checked by the engine's validators (instruments: the survey format; consents: the survey
 * format and the consent rules). Every problem is collected before the file is refused, each
 * named by its path, so one run lists everything to fix. Needs no database.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseDocument } from "yaml";
import type { z } from "zod";
import {
  formatDefinitionProblem,
  parseSurveyDefinition,
  type DefinitionProblem,
} from "../../core/survey-engine/validate-definition.ts";
import { parseConsentDefinition } from "../consents/consent-definitions.ts";
import type { DefinitionServedAs } from "../db/schema.ts";
import { IMPORT_FORMATS, type ImportFormat } from "../instrument-import/imported-instrument.ts";
import { readStandardInstrument } from "../instrument-import/import-standard-instrument.ts";
import { ImportError, readDefinitionFile } from "../instruments/import-instrument.ts";
import { StudyFileError, type FileIssue } from "./file-issues.ts";
import { studyFileSchema, type StudyFile } from "./study-file-schema.ts";
import type { ConsentSpec, InstrumentDefinitionSpec, StudySpec } from "./study-spec.ts";

type Path = readonly PropertyKey[];

/** The file's text as data: JSON for a .json file, YAML (which reads JSON too) otherwise. */
export function parseStudyFileText(text: string, fileName: string): unknown {
  if (path.extname(fileName).toLowerCase() === ".json") {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new StudyFileError(`${fileName} is not valid JSON: ${(error as Error).message}`);
    }
  }
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new StudyFileError(
      `${fileName} is not valid YAML`,
      document.errors.map((error) => ({ path: [], message: error.message.split("\n")[0] ?? error.message })),
    );
  }
  return document.toJS({ maxAliasCount: 100 }) as unknown;
}

/** Reads, parses and checks a study file (see the module header); throws StudyFileError. */
export async function readStudyFile(filePath: string): Promise<StudySpec> {
  let text: string;
  try {
    text = await readFile(filePath, "utf8");
  } catch (error) {
    throw new StudyFileError(`Cannot read ${filePath}: ${(error as Error).message}`);
  }
  return checkStudyFile(parseStudyFileText(text, filePath), path.dirname(filePath));
}

function zodIssues(error: z.ZodError): FileIssue[] {
  return error.issues.flatMap((issue): FileIssue[] => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        path: [...issue.path, key],
        message: "is not a field of the study file",
      }));
    }
    return [{ path: issue.path, message: issue.message }];
  });
}

function definitionIssues(at: Path, source: string, problems: DefinitionProblem[]): FileIssue[] {
  const prefix = source === "inline" ? "" : `${source}: `;
  return problems.map((problem) => ({ path: at, message: `${prefix}${formatDefinitionProblem(problem)}` }));
}

type LoadedDefinition = InstrumentDefinitionSpec & { servedAs: DefinitionServedAs };

/**
 * Loads an instrument definition written in a standard (`format:`) through the format's reader,
 * keeping its import report for the plan; undefined (with an issue) when it cannot be read.
 */
async function loadStandardDefinition(
  entry: Record<string, unknown>,
  format: ImportFormat,
  at: Path,
  baseDir: string,
  issues: FileIssue[],
): Promise<LoadedDefinition | undefined> {
  const raw = entry.definition;
  if (typeof raw !== "string" || raw.trim() === "") {
    if (raw !== undefined)
      issues.push({ path: at, message: `a ${format} definition is a file path, not written inline` });
    return undefined;
  }
  const form = typeof entry.form === "string" ? entry.form.trim() : undefined;
  if (form !== undefined && format !== "redcap") {
    issues.push({
      path: [...at.slice(0, -1), "form"],
      message: "applies to REDCap dictionaries only (format: redcap)",
    });
    return undefined;
  }
  try {
    const imported = await readStandardInstrument(format, path.resolve(baseDir, raw.trim()), { form });
    return {
      json: imported.definition as Record<string, unknown>,
      servedAs: entry.served_as === "zip" ? "zip" : "json",
      source: raw.trim(),
      imported: { format, report: imported.report },
    };
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    issues.push({ path: at, message: error.message }, ...definitionIssues(at, raw.trim(), error.problems));
    return undefined;
  }
}

/** Loads one definition named in the file; undefined (with an issue) when it cannot be read. */
async function loadDefinition(
  raw: unknown,
  servedAs: unknown,
  at: Path,
  baseDir: string,
  issues: FileIssue[],
): Promise<LoadedDefinition | undefined> {
  const declared = servedAs === "json" || servedAs === "zip" ? servedAs : undefined;
  if (typeof raw === "string" && raw.trim() !== "") {
    try {
      const file = await readDefinitionFile(path.resolve(baseDir, raw.trim()));
      if (typeof file.json !== "object" || file.json === null || Array.isArray(file.json)) {
        issues.push({ path: at, message: `${raw}: a definition is a JSON object` });
        return undefined;
      }
      return {
        json: file.json as Record<string, unknown>,
        servedAs: declared ?? file.servedAs,
        source: raw.trim(),
      };
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      issues.push({ path: at, message: error.message });
      return undefined;
    }
  }
  if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
    return { json: raw as Record<string, unknown>, servedAs: declared ?? "json", source: "inline" };
  }
  return undefined; // the format check names it
}

const entryOf = (value: unknown, index: number): Record<string, unknown> | undefined => {
  if (!Array.isArray(value)) return undefined;
  const entry: unknown = value[index];
  return typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>) : undefined;
};
const lengthOf = (value: unknown) => (Array.isArray(value) ? value.length : 0);

/** Every entry whose key was already used by an earlier one, named by its path. */
function duplicateIssues(keys: (string | number | undefined)[], at: (index: number) => Path, what: string) {
  const first = new Map<string | number, number>();
  const issues: FileIssue[] = [];
  keys.forEach((key, index) => {
    if (key === undefined) return;
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, index);
    else issues.push({ path: at(index), message: `${what} ${key} is listed twice (first at [${earlier}])` });
  });
  return issues;
}

const consentVersionOf = (value: unknown) => {
  if (value === undefined) return { ok: true as const, version: undefined };
  const number = typeof value === "number" ? value : /^\d+$/.test(String(value)) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(number) && number >= 1
    ? { ok: true as const, version: number }
    : { ok: false as const };
};

/**
 * Checks a parsed study file (see the module header). `baseDir` is where relative definition
 * paths start: the study file's folder.
 */
export async function checkStudyFile(raw: unknown, baseDir: string): Promise<StudySpec> {
  const parsed = studyFileSchema.safeParse(raw);
  const issues: FileIssue[] = parsed.success ? [] : zodIssues(parsed.error);
  const record = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};

  const instrumentDefinitions: (InstrumentDefinitionSpec | undefined)[] = [];
  for (let index = 0; index < lengthOf(record.instruments); index += 1) {
    const entry = entryOf(record.instruments, index);
    const at = ["instruments", index, "definition"];
    const format = IMPORT_FORMATS.find((candidate) => candidate === entry?.format);
    const loaded =
      entry && format !== undefined
        ? await loadStandardDefinition(entry, format, at, baseDir, issues)
        : await loadDefinition(entry?.definition, entry?.served_as, at, baseDir, issues);
    if (loaded) {
      const check = parseSurveyDefinition(loaded.json);
      if (!check.ok) issues.push(...definitionIssues(at, loaded.source, check.problems));
    }
    instrumentDefinitions.push(loaded);
  }

  const consents: (ConsentSpec | undefined)[] = [];
  for (let index = 0; index < lengthOf(record.consents); index += 1) {
    const entry = entryOf(record.consents, index);
    const at = ["consents", index, "definition"];
    const loaded = await loadDefinition(entry?.definition, undefined, at, baseDir, issues);
    if (!loaded) {
      consents.push(undefined);
      continue;
    }
    const check = parseConsentDefinition(loaded.json);
    if (!check.ok) {
      issues.push(...definitionIssues(at, loaded.source, check.problems));
      consents.push(undefined);
      continue;
    }
    const version = consentVersionOf(check.definition.consent_version);
    if (!version.ok) {
      issues.push({ path: [...at, "consent_version"], message: "must be a whole number from 1" });
    }
    consents.push({
      key: String(check.definition.id),
      title: check.definition.title!.trim(),
      declaredVersion: version.ok ? version.version : undefined,
      json: loaded.json,
      source: loaded.source,
    });
  }

  const sites = Array.isArray(record.sites) ? record.sites : [];
  issues.push(
    ...duplicateIssues(
      sites.map((_, index) => {
        const value = entryOf(sites, index)?.id;
        return typeof value === "number" ? value : undefined;
      }),
      (index) => ["sites", index, "id"],
      "site",
    ),
    ...duplicateIssues(
      Array.from({ length: lengthOf(record.instruments) }, (_, index) => {
        const value = entryOf(record.instruments, index)?.slug;
        return typeof value === "string" ? value : undefined;
      }),
      (index) => ["instruments", index, "slug"],
      "instrument",
    ),
    ...duplicateIssues(
      consents.map((consent) => consent?.key),
      (index) => ["consents", index, "definition", "id"],
      "consent",
    ),
  );

  if (!parsed.success || issues.length > 0) {
    throw new StudyFileError("The study file has problems", sortByPath(issues));
  }
  return specOf(parsed.data, instrumentDefinitions, consents);
}

/** Issues in the order of the file: study, sites, instruments, consents, each by index. */
function sortByPath(issues: FileIssue[]) {
  const sectionOrder = ["format", "study", "sites", "instruments", "consents"];
  const rank = (issue: FileIssue) => {
    const section = sectionOrder.indexOf(String(issue.path[0] ?? ""));
    const index = typeof issue.path[1] === "number" ? issue.path[1] : -1;
    return [section, index] as const;
  };
  return issues
    .map((issue, order) => ({ issue, order, rank: rank(issue) }))
    .sort((a, b) => a.rank[0] - b.rank[0] || a.rank[1] - b.rank[1] || a.order - b.order)
    .map(({ issue }) => issue);
}

function specOf(
  file: StudyFile,
  definitions: (InstrumentDefinitionSpec | undefined)[],
  consents: (ConsentSpec | undefined)[],
): StudySpec {
  return {
    study: {
      id: file.study.id,
      name: file.study.name,
      newConsentEnabled: file.study.new_consent_enabled,
      smsEnabled: file.study.sms_enabled,
      virtualVisits: file.study.virtual_visits,
      instrumentArchitectureVersion: file.study.instrument_architecture_version,
      greeting: file.study.greeting,
    },
    sites: file.sites.map((site) => ({
      id: site.id,
      label: site.label,
      treeLevel: site.tree_level,
      virtual: site.virtual,
    })),
    instruments: file.instruments.map((instrument, index) => {
      const definition = definitions[index]!;
      const title = typeof definition.json.title === "string" ? definition.json.title.trim() : "";
      const name = instrument.name ?? (title || instrument.slug);
      return {
        slug: instrument.slug,
        name,
        displayName: instrument.display_name ?? name,
        permissions: instrument.permissions,
        schedule: {
          startOffsetDays: instrument.schedule.start_offset_days,
          visibleDays: instrument.schedule.visible_days,
          persistent: instrument.schedule.persistent,
          specificTimes: instrument.schedule.specific_times,
        },
        definition,
      };
    }),
    consents: consents.map((consent) => consent!),
  };
}
