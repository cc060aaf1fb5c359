/**
 * Applying a study file: in one transaction, under a lock of the study's own (two applies of one
 * study wait for each other), the study's state is read, the plan made (plan-study-file.ts) and
 * handed to `onPlan` to be shown before anything is written; then, unless it is a dry run, has
 * issues or is empty, every change is made and one audit event lists them all. Row changes are
 * audited by the database's triggers like every other write; the command has no user, so the
 * actor is empty (the system) and the event says the study file did it.
 *
 * New instruments and new definition versions go through importInstrument, new consents and
 * their versions through importConsent: the same paths as `clinro instrument import` and
 * `clinro consent import`. Nothing is deleted: removal is retirement.
 */
import { eq, sql } from "drizzle-orm";
import { recordAuditEvent, setAuditActor } from "../audit/audit-trail.ts";
import { importConsent } from "../consents/consent-definitions.ts";
import type { Database, Transaction } from "../db/client.ts";
import { consents, instruments, sites, studies, type StudyConfig } from "../db/schema.ts";
import { importInstrument } from "../instruments/import-instrument.ts";
import { StudyFileError } from "./file-issues.ts";
import { metadataWith } from "./instrument-schedule.ts";
import { describeChange, planStudyFile, type Change, type StudyPlan } from "./plan-study-file.ts";
import { loadStudyState, type StudyState } from "./study-state.ts";
import type { InstrumentSpec, StudySettings, StudySpec } from "./study-spec.ts";

/** The audit event's action: one per apply that changed something. */
export const STUDY_FILE_APPLIED = "study_file_applied";
/** The first key of a study's advisory lock (this module's); the second is the study id. */
const STUDY_LOCK_CLASS = 20_118;

export type ApplyOptions = {
  dryRun?: boolean;
  /** The file's name, for the audit event. */
  source: string;
  /** Shown the plan's lines before anything is written. */
  onPlan?: (lines: string[]) => void;
  now?: Date;
};

export type ApplyOutcome = { studyId: number; lines: string[]; applied: boolean };

/** Ends the transaction without writing: a dry run, or a plan with nothing to do. */
class NothingWritten extends Error {
  constructor(readonly outcome: ApplyOutcome) {
    super("nothing written");
  }
}

function configWith(current: StudyConfig, settings: StudySettings): StudyConfig {
  const clinro = { ...current.clinro };
  if (settings.greeting === undefined) delete clinro.greeting;
  else clinro.greeting = settings.greeting;
  const next: StudyConfig = {
    ...current,
    virtual_visits: settings.virtualVisits,
    instrument_architecture_version: settings.instrumentArchitectureVersion,
  };
  if (Object.keys(clinro).length > 0) next.clinro = clinro;
  else delete next.clinro;
  return next;
}

async function writeInstrumentColumns(tx: Transaction, instrumentId: number, instrument: InstrumentSpec) {
  const [row] = await tx
    .select({ metadata: instruments.metadata })
    .from(instruments)
    .where(eq(instruments.id, instrumentId));
  await tx
    .update(instruments)
    .set({
      name: instrument.name,
      displayName: instrument.displayName,
      permissions: instrument.permissions,
      visibleDays: instrument.schedule.visibleDays,
      startOffsetDays: instrument.schedule.startOffsetDays,
      metadata: metadataWith(row?.metadata ?? {}, instrument.schedule, instrument.displayName),
    })
    .where(eq(instruments.id, instrumentId));
}

/** A new instrument's definition, or (newVersion) the next version of the one the file names. */
async function importDefinition(
  tx: Transaction,
  studyId: number,
  instrument: InstrumentSpec,
  newVersion: boolean,
) {
  const outcome = await importInstrument(tx, {
    studyId,
    ...(newVersion ? { newVersionOf: instrument.slug } : { slug: instrument.slug }),
    name: instrument.name,
    permissions: instrument.permissions,
    file: {
      json: instrument.definition.json,
      servedAs: instrument.definition.servedAs,
      baseName: instrument.slug,
    },
  });
  return outcome.instrumentId!;
}

async function makeChange(tx: Transaction, change: Change, spec: StudySpec, state: StudyState, now: Date) {
  const studyId = spec.study.id;
  switch (change.kind) {
    case "create-study":
      await tx.insert(studies).values({
        id: studyId,
        name: spec.study.name,
        smsEnabled: spec.study.smsEnabled,
        newConsentEnabled: spec.study.newConsentEnabled,
        config: configWith({}, spec.study),
      });
      return;
    case "update-study":
      await tx
        .update(studies)
        .set({
          name: spec.study.name,
          smsEnabled: spec.study.smsEnabled,
          newConsentEnabled: spec.study.newConsentEnabled,
          config: configWith(state.study?.config ?? {}, spec.study),
        })
        .where(eq(studies.id, studyId));
      return;
    case "create-site":
      await tx.insert(sites).values({
        id: change.site.id,
        studyId,
        label: change.site.label,
        treeLevel: change.site.treeLevel,
        isVirtual: change.site.virtual,
      });
      return;
    case "update-site":
      await tx
        .update(sites)
        .set({ label: change.site.label, treeLevel: change.site.treeLevel, isVirtual: change.site.virtual })
        .where(eq(sites.id, change.site.id));
      return;
    case "retire-site":
    case "unretire-site":
      await tx
        .update(sites)
        .set({ retiredAt: change.kind === "retire-site" ? now : null })
        .where(eq(sites.id, change.siteId));
      return;
    case "create-instrument": {
      const instrumentId = await importDefinition(tx, studyId, change.instrument, false);
      await writeInstrumentColumns(tx, instrumentId, change.instrument);
      return;
    }
    case "update-instrument":
      if (change.newDefinitionVersion !== undefined)
        await importDefinition(tx, studyId, change.instrument, true);
      if (change.fields.length > 0) await writeInstrumentColumns(tx, change.instrumentId, change.instrument);
      return;
    case "retire-instrument":
    case "unretire-instrument":
      await tx
        .update(instruments)
        .set({ retiredAt: change.kind === "retire-instrument" ? now : null })
        .where(eq(instruments.id, change.instrumentId));
      return;
    case "create-consent":
    case "publish-consent":
      await importConsent(tx, { studyId, json: change.consent.json, now });
      return;
    case "retire-consent":
    case "unretire-consent":
      await tx
        .update(consents)
        .set({ retiredAt: change.kind === "retire-consent" ? now : null })
        .where(eq(consents.id, change.consentId));
      return;
  }
}

/**
 * Plans and (unless a dry run) applies a checked study file; see the module header. Throws
 * StudyFileError with the plan's issues when the database refuses what the file says.
 */
export async function applyStudyFile(
  db: Database,
  spec: StudySpec,
  options: ApplyOptions,
): Promise<ApplyOutcome> {
  const now = options.now ?? new Date();
  try {
    return await db.transaction(async (tx) => {
      // The command has no user: its rows are the system's, as the other commands' are.
      await setAuditActor(tx, null);
      // Two applies of one study (two terminals, two servers' operators) take turns.
      await tx.execute(sql`select pg_advisory_xact_lock(${STUDY_LOCK_CLASS}::int, ${spec.study.id}::int)`);
      const state = await loadStudyState(
        tx,
        spec.study.id,
        spec.sites.map((site) => site.id),
      );
      const plan: StudyPlan = planStudyFile(spec, state);
      if (plan.issues.length > 0) throw new StudyFileError("The study file cannot be applied", plan.issues);
      const lines = plan.changes.map((change) => describeChange(change, spec));
      options.onPlan?.(lines);
      const outcome = { studyId: spec.study.id, lines, applied: false };
      if (options.dryRun || plan.changes.length === 0) throw new NothingWritten(outcome);
      for (const change of plan.changes) await makeChange(tx, change, spec, state, now);
      await recordAuditEvent(tx, {
        actorUserId: null,
        action: STUDY_FILE_APPLIED,
        tableName: "studies",
        rowKey: { id: spec.study.id },
        details: { via: "cli", command: "study apply", file: options.source, changes: lines },
      });
      return { ...outcome, applied: true };
    });
  } catch (error) {
    if (error instanceof NothingWritten) return error.outcome;
    throw error;
  }
}
