/**
 * Importing a survey definition into a study (the `clinro instrument import` command): reads a
 * .json file, or a .zip holding one .json file, checks it with the engine's
 * parseSurveyDefinition, and stores it as a new clinician instrument, or as the next definition
 * version of the study's instrument with the same slug. A definition that does not pass changes
 * nothing.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { DEFAULT_FORM_PERMISSIONS, INSTRUMENT_TYPE } from "../../core/contracts/instrument-lists.ts";
import {
  parseSurveyDefinition,
  type DefinitionProblem,
} from "../../core/survey-engine/validate-definition.ts";
import type { Database, Transaction } from "../db/client.ts";
import { instruments, studies, type DefinitionServedAs } from "../db/schema.ts";
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
};

export type ImportOutcome = {
  created: boolean;
  instrumentId: number;
  name: string;
  slug: string;
  studyId: number;
  versionNumber: number;
  servedAs: DefinitionServedAs;
  /** Options that only apply to a new instrument and were given for an existing one. */
  ignored: string[];
};

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
  const slug = options.slug ?? slugFrom(options.file.baseName);
  if (!SLUG_PATTERN.test(slug)) {
    throw new ImportError(
      `The slug "${slug}" is not valid: use 1 to 100 lower-case letters, digits, - and _, starting with a letter or digit`,
    );
  }
  const name = options.name?.trim() || parsed.definition.title?.trim() || slug;

  return db.transaction(async (tx) => {
    const [study] = await tx.select({ id: studies.id }).from(studies).where(eq(studies.id, options.studyId));
    if (!study) throw new ImportError(`Study ${options.studyId} does not exist`);
    const [existing] = await tx
      .select()
      .from(instruments)
      .where(and(eq(instruments.studyId, options.studyId), eq(instruments.slug, slug)))
      .orderBy(asc(instruments.id))
      .limit(1);
    if (existing) {
      if (existing.instrumentType !== INSTRUMENT_TYPE.clinician) {
        throw new ImportError(
          `The instrument "${slug}" of study ${options.studyId} is an ${existing.instrumentType}, not a clinician instrument`,
        );
      }
      const versionNumber = await addDefinitionVersion(tx, existing.id, definition, options.file.servedAs);
      const ignored = [
        ...(options.name !== undefined ? ["--name"] : []),
        ...(options.permissions !== undefined ? ["--permissions"] : []),
      ];
      return {
        created: false,
        instrumentId: existing.id,
        name: existing.displayName,
        slug,
        studyId: options.studyId,
        versionNumber,
        servedAs: options.file.servedAs,
        ignored,
      };
    }
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
    const versionNumber = await addDefinitionVersion(tx, created!.id, definition, options.file.servedAs);
    return {
      created: true,
      instrumentId: created!.id,
      name,
      slug,
      studyId: options.studyId,
      versionNumber,
      servedAs: options.file.servedAs,
      ignored: [],
    };
  });
}
