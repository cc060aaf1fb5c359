/**
 * Exporting a study as a study file (`clinro study export --study ID`): the study as it stands,
 * in the format apply reads, so that export then apply changes nothing. Definitions are written
 * inline (the latest definition version of each instrument, the latest published version of
 * each consent with its consent_version), so the one file is all apply needs. What is retired is
 * left out: applying the export keeps it retired. Announcements are not the study file's.
 */
import { stringify } from "yaml";
import { DEFAULT_INSTRUMENT_ARCHITECTURE_VERSION } from "../../core/contracts/instrument-architecture.ts";
import { INSTRUMENT_TYPE } from "../../core/contracts/instrument-lists.ts";
import type { Database } from "../db/client.ts";
import { scheduleOf } from "./instrument-schedule.ts";
import { STUDY_FILE_FORMAT, type StudyFile } from "./study-file-schema.ts";
import { loadStudyState } from "./study-state.ts";

export type StudyExport = {
  file: StudyFile;
  /** What could not be written (an instrument without any definition version). */
  warnings: string[];
};

/** The study as a study file's data, or undefined when there is no such study. */
export async function exportStudy(db: Database, studyId: number): Promise<StudyExport | undefined> {
  const state = await loadStudyState(db, studyId);
  const study = state.study;
  if (!study) return undefined;
  const warnings: string[] = [];
  const greeting = study.config.clinro?.greeting?.trim();
  const instruments: NonNullable<StudyFile["instruments"]> = [];
  for (const instrument of state.instruments) {
    if (instrument.instrumentType !== INSTRUMENT_TYPE.clinician || instrument.retiredAt) continue;
    if (!instrument.latest) {
      warnings.push(`instrument ${instrument.slug} has no definition: left out`);
      continue;
    }
    const schedule = scheduleOf(instrument);
    instruments.push({
      slug: instrument.slug,
      name: instrument.name,
      display_name: instrument.displayName,
      permissions: instrument.permissions,
      schedule: {
        start_offset_days: schedule.startOffsetDays,
        visible_days: schedule.visibleDays,
        persistent: schedule.persistent,
        specific_times: schedule.specificTimes,
      },
      ...(instrument.latest.servedAs === "zip" ? { served_as: "zip" as const } : {}),
      definition: instrument.latest.definition,
    });
  }
  const consents: NonNullable<StudyFile["consents"]> = [];
  for (const consent of state.consents) {
    if (consent.retiredAt || consent.definitionKey === null) continue;
    if (!consent.latest) {
      warnings.push(`consent ${consent.definitionKey} has no published version: left out`);
      continue;
    }
    consents.push({ definition: consent.latest.definition });
  }
  return {
    file: {
      format: STUDY_FILE_FORMAT,
      study: {
        id: study.id,
        name: study.name,
        new_consent_enabled: study.newConsentEnabled,
        sms_enabled: study.smsEnabled,
        virtual_visits: study.config.virtual_visits ?? false,
        instrument_architecture_version:
          study.config.instrument_architecture_version ?? DEFAULT_INSTRUMENT_ARCHITECTURE_VERSION,
        ...(greeting ? { greeting } : {}),
      },
      sites: state.sites
        .filter((site) => !site.retiredAt)
        .map((site) => ({
          id: site.id,
          label: site.label,
          tree_level: site.treeLevel,
          virtual: site.isVirtual,
        })),
      instruments,
      consents,
    },
    warnings,
  };
}

/** The study file's text: YAML with a header saying where it came from. */
export function studyFileText(file: StudyFile): string {
  const header = [
    `# Study ${file.study.id}, exported by \`npx clinro study export --study ${file.study.id}\`.`,
    "# The format: docs/study-file.md. Apply it with `npx clinro study apply FILE`.",
  ].join("\n");
  return `${header}\n${stringify(file, { lineWidth: 0, aliasDuplicateObjects: false })}`;
}
