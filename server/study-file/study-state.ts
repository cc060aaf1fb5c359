/**
 * A study as the database holds it, in the terms of the study file: the study row, its sites,
 * its instruments with their latest definition version, its consents with their latest published
 * version. The plan compares a file with it; export writes it out.
 */
import { and, asc, desc, eq, inArray, ne } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import {
  consents,
  consentVersions,
  instrumentDefinitions,
  instruments,
  sites,
  studies,
  type DefinitionServedAs,
} from "../db/schema.ts";

type Executor = Database | Transaction;

export type StudyRow = typeof studies.$inferSelect;
export type SiteRow = typeof sites.$inferSelect;
export type InstrumentRow = typeof instruments.$inferSelect;
export type ConsentRow = typeof consents.$inferSelect;

export type InstrumentState = InstrumentRow & {
  latest:
    { definition: Record<string, unknown>; servedAs: DefinitionServedAs; versionNumber: number } | undefined;
};

export type ConsentState = ConsentRow & {
  /** The latest published version: its number and the definition as the file would write it. */
  latest: { version: number; definition: Record<string, unknown> } | undefined;
};

export type StudyState = {
  study: StudyRow | undefined;
  sites: SiteRow[];
  /** Sites the file names that belong to another study (site ids are unique across studies). */
  foreignSites: { id: number; studyId: number }[];
  instruments: InstrumentState[];
  consents: ConsentState[];
};

/** The keys importConsent adds to a stored version; a file's definition does not carry them. */
const STORED_CONSENT_KEYS = ["consent_id", "version"];

/** A stored consent version as a study file writes it: consent_version says its number. */
export function consentDefinitionAsFiled(stored: Record<string, unknown>, version: number) {
  const filed = Object.fromEntries(
    Object.entries(stored).filter(([key]) => !STORED_CONSENT_KEYS.includes(key)),
  );
  return { ...filed, consent_version: version };
}

export async function loadStudyState(
  db: Executor,
  studyId: number,
  fileSiteIds: number[] = [],
): Promise<StudyState> {
  const [study] = await db.select().from(studies).where(eq(studies.id, studyId));
  const siteRows = await db.select().from(sites).where(eq(sites.studyId, studyId)).orderBy(asc(sites.id));
  const foreignSites =
    fileSiteIds.length === 0
      ? []
      : await db
          .select({ id: sites.id, studyId: sites.studyId })
          .from(sites)
          .where(and(inArray(sites.id, fileSiteIds), ne(sites.studyId, studyId)));

  const instrumentRows = await db
    .select()
    .from(instruments)
    .where(eq(instruments.studyId, studyId))
    .orderBy(asc(instruments.id));
  const instrumentStates: InstrumentState[] = [];
  for (const row of instrumentRows) {
    const [latest] = await db
      .select({
        definition: instrumentDefinitions.definition,
        servedAs: instrumentDefinitions.servedAs,
        versionNumber: instrumentDefinitions.versionNumber,
      })
      .from(instrumentDefinitions)
      .where(eq(instrumentDefinitions.instrumentId, row.id))
      .orderBy(desc(instrumentDefinitions.versionNumber))
      .limit(1);
    instrumentStates.push({ ...row, latest });
  }

  const consentRows = await db
    .select()
    .from(consents)
    .where(eq(consents.studyId, studyId))
    .orderBy(asc(consents.id));
  const consentStates: ConsentState[] = [];
  for (const row of consentRows) {
    const [latest] = await db
      .select({ version: consentVersions.version, definition: consentVersions.definition })
      .from(consentVersions)
      .where(eq(consentVersions.consentId, row.id))
      .orderBy(desc(consentVersions.version))
      .limit(1);
    consentStates.push({
      ...row,
      latest: latest
        ? { version: latest.version, definition: consentDefinitionAsFiled(latest.definition, latest.version) }
        : undefined,
    });
  }
  return { study, sites: siteRows, foreignSites, instruments: instrumentStates, consents: consentStates };
}
