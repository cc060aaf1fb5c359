/**
 * Importing a survey definition into a study (the `clinro instrument import` command): reads a
 * .json file, or a .zip holding one .json file, checks it with the engine's
 * parseSurveyDefinition, and stores it as a new clinician instrument. A slug the study already
 * has is refused, naming that instrument, unless the import names it as the one to version
 * (`newVersionOf`): a form that only shares a name with an instrument (two "Demographics" from
 * two sources) must not replace what every new participant is asked. The same definition as the
 * instrument's latest version adds nothing ("no changes"). A dry run reads and reports the same
 * and writes nothing. A definition that does not pass changes nothing.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { and, asc, desc, eq } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { DEFAULT_FORM_PERMISSIONS, INSTRUMENT_TYPE } from "../../core/contracts/instrument-lists.ts";
import {
  parseSurveyDefinition,
  type DefinitionProblem,
} from "../../core/survey-engine/validate-definition.ts";
import type { Database, Transaction } from "../db/client.ts";
import { instrumentDefinitions, instruments, studies, type DefinitionServedAs } from "../db/schema.ts";
import { describeDefinitionChanges } from "./definition-changes.ts";
import { addDefinitionVersion } from "./instrument-definitions.ts";

/** Slugs are the last segment of an instrument's url: lower-case letters, digits, - and _. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9_-]{0,99}$/;

export class ImportError extends Error {
  constructor(
    message: string,
    readonly problems: DefinitionProblem[] = [],
  ) {
    super(message);
    this.name = "ImportError";
  }
}

export type DefinitionFile = {
  json: unknown;
  servedAs: DefinitionServedAs;
  /** The JSON file's name without .json: the default slug. */
  baseName: string;
};

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ImportError(`${where} is not valid JSON: ${(error as Error).message}`);
  }
}

/** Reads a definition file: .json as is, .zip holding exactly one .json file (served as zip). */
export async function readDefinitionFile(filePath: string): Promise<DefinitionFile> {
  const extension = path.extname(filePath).toLowerCase();
  let bytes: Buffer;
  try {
    bytes = await readFile(filePath);
  } catch (error) {
    throw new ImportError(`Cannot read ${filePath}: ${(error as Error).message}`);
  }
  if (extension === ".json") {
    return {
      json: parseJson(bytes.toString("utf8"), filePath),
      servedAs: "json",
      baseName: path.basename(filePath, path.extname(filePath)),
    };
  }
  if (extension !== ".zip") throw new ImportError(`${filePath} is neither a .json nor a .zip file`);
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(new Uint8Array(bytes));
  } catch (error) {
    throw new ImportError(`${filePath} is not a readable zip file: ${(error as Error).message}`);
  }
  const jsonFiles = Object.keys(entries).filter(
    (name) => name.toLowerCase().endsWith(".json") && !name.startsWith("__MACOSX/"),
  );
  if (jsonFiles.length !== 1) {
    throw new ImportError(`${filePath} must hold exactly one .json file; it holds ${jsonFiles.length}`);
  }
  const inner = jsonFiles[0]!;
  return {
    json: parseJson(strFromU8(entries[inner]!), `${inner} in ${filePath}`),
    servedAs: "zip",
    baseName: path.posix.basename(inner, path.extname(inner)),
  };
}

/** A file name as a slug: lower-cased, runs of other characters made one "-". */
export function slugFrom(name: string) {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100);
}

export type ImportOptions = {
  studyId: number;
  file: DefinitionFile;
  name?: string | undefined;
  slug?: string | undefined;
  permissions?: string[] | undefined;
  /**
   * The slug of the study's instrument this definition is the next version of: only then is an
   * existing instrument given a new version. Implies the slug.
   */
  newVersionOf?: string | undefined;
  /** Read and report as an import would, and write nothing. */
  dryRun?: boolean | undefined;
};

/** A new instrument, a new version of one, or nothing to do (the same definition again). */
export type ImportKind = "created" | "new-version" | "unchanged";

export type ImportOutcome = {
  kind: ImportKind;
  /** Nothing was written: a dry run (kind says what the import would do). */
  dryRun: boolean;
  /** The instrument; undefined only for a dry run of a new one. */
  instrumentId: number | undefined;
  name: string;
  slug: string;
  studyId: number;
  /** The version added (or a dry run would add); for "unchanged", the latest one. */
  versionNumber: number;
  servedAs: DefinitionServedAs;
  /** Options that only apply to a new instrument and were given for an existing one. */
  ignored: string[];
  /** For a new version: what it changes from the latest one (definition-changes.ts). */
  changes: string[];
  /** How many questions the definition holds. */
  questionCount: number;
};

function questionCount(definition: Record<string, unknown>) {
  const questions = definition.questions;
  return typeof questions === "object" && questions !== null ? Object.keys(questions).length : 0;
}

function plural(count: number, noun: string) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * Checks the definition, then adds it to the study. Throws ImportError, with the definition's
 * problems when it does not pass; nothing is stored then.
 */
export async function importInstrument(
  db: Database | Transaction,
  options: ImportOptions,
): Promise<ImportOutcome> {
  const parsed = parseSurveyDefinition(options.file.json);
  if (!parsed.ok) throw new ImportError("The definition does not pass the survey format", parsed.problems);
  const definition = options.file.json as Record<string, unknown>;
  if (
    options.newVersionOf !== undefined &&
    options.slug !== undefined &&
    options.slug !== options.newVersionOf
  ) {
    throw new ImportError(
      `--slug ${options.slug} and --new-version-of ${options.newVersionOf} name two instruments: give one`,
    );
  }
  const slug = options.newVersionOf ?? options.slug ?? slugFrom(options.file.baseName);
  if (!SLUG_PATTERN.test(slug)) {
    throw new ImportError(
      `The slug "${slug}" is not valid: use 1 to 100 lower-case letters, digits, - and _, starting with a letter or digit`,
    );
  }
  const name = options.name?.trim() || parsed.definition.title?.trim() || slug;
  const dryRun = options.dryRun === true;
  const count = questionCount(definition);
  const servedAs = options.file.servedAs;

  return db.transaction(async (tx) => {
    const [study] = await tx.select({ id: studies.id }).from(studies).where(eq(studies.id, options.studyId));
    if (!study) throw new ImportError(`Study ${options.studyId} does not exist`);
    const [existing] = await tx
      .select()
      .from(instruments)
      .where(and(eq(instruments.studyId, options.studyId), eq(instruments.slug, slug)))
      .orderBy(asc(instruments.id))
      .limit(1);
    if (!existing) {
      if (options.newVersionOf !== undefined) {
        throw new ImportError(
          `Study ${options.studyId} has no instrument with the slug "${slug}" to add a version to`,
        );
      }
      const outcome = {
        kind: "created" as const,
        dryRun,
        name,
        slug,
        studyId: options.studyId,
        servedAs,
        ignored: [],
        changes: [],
        questionCount: count,
        versionNumber: 1,
      };
      if (dryRun) return { ...outcome, instrumentId: undefined };
      const [created] = await tx
        .insert(instruments)
        .values({
          studyId: options.studyId,
          name,
          displayName: name,
          instrumentType: INSTRUMENT_TYPE.clinician,
          slug,
          permissions: options.permissions ?? [...DEFAULT_FORM_PERMISSIONS],
          metadata: { display_name: name },
        })
        .returning({ id: instruments.id });
      const versionNumber = await addDefinitionVersion(tx, created!.id, definition, servedAs);
      return { ...outcome, instrumentId: created!.id, versionNumber };
    }
    if (existing.instrumentType !== INSTRUMENT_TYPE.clinician) {
      throw new ImportError(
        `The instrument "${slug}" of study ${options.studyId} is an ${existing.instrumentType}, not a clinician instrument`,
      );
    }
    const [latest] = await tx
      .select({
        versionNumber: instrumentDefinitions.versionNumber,
        definition: instrumentDefinitions.definition,
        servedAs: instrumentDefinitions.servedAs,
      })
      .from(instrumentDefinitions)
      .where(eq(instrumentDefinitions.instrumentId, existing.id))
      .orderBy(desc(instrumentDefinitions.versionNumber))
      .limit(1);
    const changes = latest ? describeDefinitionChanges(latest.definition, definition) : [];
    if (latest && latest.servedAs !== servedAs)
      changes.push(`served as ${servedAs} instead of ${latest.servedAs}`);
    const outcome = {
      dryRun,
      instrumentId: existing.id,
      name: existing.displayName,
      slug,
      studyId: options.studyId,
      servedAs,
      ignored: [
        ...(options.name !== undefined ? ["--name"] : []),
        ...(options.permissions !== undefined ? ["--permissions"] : []),
      ],
      changes,
      questionCount: count,
    };
    // The same definition again (a script run twice): nothing to add, whether asked or not.
    if (latest && changes.length === 0) {
      return { ...outcome, kind: "unchanged" as const, versionNumber: latest.versionNumber };
    }
    if (options.newVersionOf === undefined) {
      const current = latest
        ? `, ${plural(questionCount(latest.definition), "question")} in its definition version ${latest.versionNumber}`
        : "";
      throw new ImportError(
        `Study ${options.studyId} already has an instrument with the slug "${slug}": instrument ${existing.id} "${existing.displayName}"${current}. ` +
          `This file (${plural(count, "question")}) becomes its next version only when named: run again with --new-version-of ${slug} ` +
          `(add --dry-run to see what changes first), or give it another --slug to import it as a new instrument`,
      );
    }
    const next = (latest?.versionNumber ?? 0) + 1;
    if (dryRun) return { ...outcome, kind: "new-version" as const, versionNumber: next };
    const versionNumber = await addDefinitionVersion(tx, existing.id, definition, servedAs);
    return { ...outcome, kind: "new-version" as const, versionNumber };
  });
}
