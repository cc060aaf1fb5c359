/**
 * The plan: what applying a study file would change, computed from the file and the database's
 * state without writing anything. Rules:
 * - The study, a site, an instrument (by slug, clinician instruments only) or a consent (by its
 *   definition's id) the database lacks is created.
 * - One it has is updated field by field, only where the file says otherwise; a changed
 *   definition is a new definition version (instruments) or a newly published version
 *   (consents); nothing already stored is rewritten.
 * - One the file no longer lists is retired, never deleted: its collected data stays. One the
 *   file lists again is brought back.
 * - Announcements are not the study file's: they are never retired or changed.
 * - What the database refuses to let the file say is an issue naming its path: a site id of
 *   another study, a slug that is an announcement, a consent_version that is neither the current
 *   version (unchanged) nor the next one (changed).
 * An empty plan is "no changes".
 */
import { DEFAULT_INSTRUMENT_ARCHITECTURE_VERSION } from "../../core/contracts/instrument-architecture.ts";
import { INSTRUMENT_TYPE } from "../../core/contracts/instrument-lists.ts";
import type { FileIssue } from "./file-issues.ts";
import { describeWindows, scheduleOf } from "./instrument-schedule.ts";
import type { ConsentState, InstrumentState, StudyState } from "./study-state.ts";
import type { ConsentSpec, InstrumentSpec, SiteSpec, StudySpec } from "./study-spec.ts";

export type FieldChange = { field: string; from: string; to: string };

export type Change =
  | { kind: "create-study" }
  | { kind: "update-study"; fields: FieldChange[] }
  | { kind: "create-site"; site: SiteSpec }
  | { kind: "update-site"; site: SiteSpec; fields: FieldChange[] }
  | { kind: "retire-site"; siteId: number; label: string }
  | { kind: "unretire-site"; siteId: number; label: string }
  | { kind: "create-instrument"; instrument: InstrumentSpec }
  | {
      kind: "update-instrument";
      instrumentId: number;
      instrument: InstrumentSpec;
      fields: FieldChange[];
      /** The number of the definition version the file's definition becomes, when it changed. */
      newDefinitionVersion: number | undefined;
    }
  | { kind: "retire-instrument"; instrumentId: number; slug: string }
  | { kind: "unretire-instrument"; instrumentId: number; slug: string }
  | { kind: "create-consent"; consent: ConsentSpec }
  | { kind: "publish-consent"; consentId: number; consent: ConsentSpec; version: number }
  | { kind: "retire-consent"; consentId: number; key: string; title: string }
  | { kind: "unretire-consent"; consentId: number; key: string; title: string };

export type StudyPlan = { studyId: number; changes: Change[]; issues: FileIssue[] };

const quoted = (text: string | undefined) => (text === undefined ? "none" : `'${text}'`);

/** The same JSON value, whatever the order of object keys (jsonb does not keep it). */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function fieldChanges(pairs: [field: string, from: string, to: string][]): FieldChange[] {
  return pairs.filter(([, from, to]) => from !== to).map(([field, from, to]) => ({ field, from, to }));
}

function planStudy(spec: StudySpec, state: StudyState): Change[] {
  const study = state.study;
  if (!study) return [{ kind: "create-study" }];
  const wanted = spec.study;
  const config = study.config;
  const fields = fieldChanges([
    ["name", quoted(study.name), quoted(wanted.name)],
    ["new_consent_enabled", String(study.newConsentEnabled), String(wanted.newConsentEnabled)],
    ["sms_enabled", String(study.smsEnabled), String(wanted.smsEnabled)],
    ["virtual_visits", String(config.virtual_visits ?? false), String(wanted.virtualVisits)],
    [
      "instrument_architecture_version",
      String(config.instrument_architecture_version ?? DEFAULT_INSTRUMENT_ARCHITECTURE_VERSION),
      String(wanted.instrumentArchitectureVersion),
    ],
    ["greeting", quoted(config.clinro?.greeting || undefined), quoted(wanted.greeting)],
  ]);
  return fields.length > 0 ? [{ kind: "update-study", fields }] : [];
}

function planSites(spec: StudySpec, state: StudyState, issues: FileIssue[]): Change[] {
  const changes: Change[] = [];
  spec.sites.forEach((site, index) => {
    const foreign = state.foreignSites.find((candidate) => candidate.id === site.id);
    if (foreign) {
      issues.push({
        path: ["sites", index, "id"],
        message: `site ${site.id} belongs to study ${foreign.studyId}; site ids are unique across studies`,
      });
      return;
    }
    const current = state.sites.find((candidate) => candidate.id === site.id);
    if (!current) {
      changes.push({ kind: "create-site", site });
      return;
    }
    if (current.retiredAt) changes.push({ kind: "unretire-site", siteId: site.id, label: site.label });
    const fields = fieldChanges([
      ["label", quoted(current.label), quoted(site.label)],
      ["tree_level", String(current.treeLevel), String(site.treeLevel)],
      ["virtual", String(current.isVirtual), String(site.virtual)],
    ]);
    if (fields.length > 0) changes.push({ kind: "update-site", site, fields });
  });
  for (const current of state.sites) {
    if (!current.retiredAt && !spec.sites.some((site) => site.id === current.id)) {
      changes.push({ kind: "retire-site", siteId: current.id, label: current.label });
    }
  }
  return changes;
}

const samePermissions = (a: readonly string[], b: readonly string[]) =>
  [...new Set(a)].sort().join(",") === [...new Set(b)].sort().join(",");

function instrumentFields(current: InstrumentState, instrument: InstrumentSpec): FieldChange[] {
  const schedule = scheduleOf(current);
  const wanted = instrument.schedule;
  return fieldChanges([
    ["name", quoted(current.name), quoted(instrument.name)],
    ["display_name", quoted(current.displayName), quoted(instrument.displayName)],
    [
      "permissions",
      current.permissions.join(","),
      samePermissions(current.permissions, instrument.permissions)
        ? current.permissions.join(",")
        : instrument.permissions.join(","),
    ],
    ["start_offset_days", String(schedule.startOffsetDays), String(wanted.startOffsetDays)],
    ["visible_days", String(schedule.visibleDays), String(wanted.visibleDays)],
    ["persistent", String(schedule.persistent), String(wanted.persistent)],
    ["specific_times", describeWindows(schedule.specificTimes), describeWindows(wanted.specificTimes)],
  ]);
}

function definitionChanged(current: InstrumentState, instrument: InstrumentSpec) {
  const latest = current.latest;
  return (
    !latest ||
    latest.servedAs !== instrument.definition.servedAs ||
    !sameJson(latest.definition, instrument.definition.json)
  );
}

function planInstruments(spec: StudySpec, state: StudyState, issues: FileIssue[]): Change[] {
  const changes: Change[] = [];
  const matched = new Set<number>();
  spec.instruments.forEach((instrument, index) => {
    const sameSlug = state.instruments.filter((candidate) => candidate.slug === instrument.slug);
    const current = sameSlug.find((candidate) => candidate.instrumentType === INSTRUMENT_TYPE.clinician);
    if (!current) {
      if (sameSlug.length > 0) {
        issues.push({
          path: ["instruments", index, "slug"],
          message: `"${instrument.slug}" is an announcement of study ${spec.study.id}, not a clinician instrument`,
        });
      } else {
        changes.push({ kind: "create-instrument", instrument });
      }
      return;
    }
    matched.add(current.id);
    if (current.retiredAt) {
      changes.push({ kind: "unretire-instrument", instrumentId: current.id, slug: current.slug });
    }
    const fields = instrumentFields(current, instrument);
    const newDefinitionVersion = definitionChanged(current, instrument)
      ? (current.latest?.versionNumber ?? 0) + 1
      : undefined;
    if (fields.length > 0 || newDefinitionVersion !== undefined) {
      changes.push({
        kind: "update-instrument",
        instrumentId: current.id,
        instrument,
        fields,
        newDefinitionVersion,
      });
    }
  });
  for (const current of state.instruments) {
    if (
      current.instrumentType !== INSTRUMENT_TYPE.clinician ||
      current.retiredAt ||
      matched.has(current.id)
    ) {
      continue;
    }
    changes.push({ kind: "retire-instrument", instrumentId: current.id, slug: current.slug });
  }
  return changes;
}

function currentConsentVersion(current: ConsentState) {
  return Math.max(current.version, current.latest?.version ?? 0);
}

function planConsents(spec: StudySpec, state: StudyState, issues: FileIssue[]): Change[] {
  const changes: Change[] = [];
  const matched = new Set<number>();
  spec.consents.forEach((consent, index) => {
    const versionPath = ["consents", index, "definition", "consent_version"];
    const current = state.consents.find((candidate) => candidate.definitionKey === consent.key);
    if (!current) {
      if (consent.declaredVersion !== undefined && consent.declaredVersion !== 1) {
        issues.push({
          path: versionPath,
          message: `is ${consent.declaredVersion}, but consent ${consent.key} is new to the study: its first version is 1`,
        });
        return;
      }
      changes.push({ kind: "create-consent", consent });
      return;
    }
    matched.add(current.id);
    const version = currentConsentVersion(current);
    const unchanged =
      current.latest !== undefined &&
      sameJson(
        { ...current.latest.definition, consent_version: undefined },
        { ...consent.json, consent_id: undefined, version: undefined, consent_version: undefined },
      );
    if (unchanged && consent.declaredVersion !== undefined && consent.declaredVersion !== version) {
      issues.push({
        path: versionPath,
        message: `is ${consent.declaredVersion}, but this definition is version ${version} of consent ${consent.key}`,
      });
      return;
    }
    if (!unchanged && consent.declaredVersion !== undefined && consent.declaredVersion !== version + 1) {
      issues.push({
        path: versionPath,
        message: `is ${consent.declaredVersion}, but the definition changed: the next version of consent ${consent.key} is ${version + 1}`,
      });
      return;
    }
    if (current.retiredAt) {
      changes.push({
        kind: "unretire-consent",
        consentId: current.id,
        key: consent.key,
        title: consent.title,
      });
    }
    if (!unchanged)
      changes.push({ kind: "publish-consent", consentId: current.id, consent, version: version + 1 });
  });
  for (const current of state.consents) {
    // A consent without a definition key (made before imports named them) is not the file's.
    if (current.retiredAt || current.definitionKey === null || matched.has(current.id)) continue;
    changes.push({
      kind: "retire-consent",
      consentId: current.id,
      key: current.definitionKey,
      title: current.title,
    });
  }
  return changes;
}

/** What applying `spec` to a database in `state` would change (see the module header). */
export function planStudyFile(spec: StudySpec, state: StudyState): StudyPlan {
  const issues: FileIssue[] = [];
  const changes = [
    ...planStudy(spec, state),
    ...planSites(spec, state, issues),
    ...planInstruments(spec, state, issues),
    ...planConsents(spec, state, issues),
  ];
  return { studyId: spec.study.id, changes, issues };
}

const described = (fields: FieldChange[]) =>
  fields.map((field) => `${field.field} ${field.from} -> ${field.to}`).join(", ");

/**
 * A definition read from a standard: the format, then each thing its import report lists on a
 * line of its own, so that the plan shows what the stored definition does not carry.
 */
function importNotes(instrument: InstrumentSpec): string {
  const imported = instrument.definition.imported;
  if (!imported) return "";
  if (imported.report.length === 0) return `, read as ${imported.format}: everything mapped`;
  return [
    `, read as ${imported.format}; not mapped, or mapped in part:`,
    ...imported.report.map((entry) => `    ${entry.source}: ${entry.problem}`),
  ].join("\n");
}

/** One line of the printed plan: "create site 3011 'Riverside'", "retire instrument gad-7". */
export function describeChange(change: Change, spec: StudySpec): string {
  switch (change.kind) {
    case "create-study":
      return `create study ${spec.study.id} '${spec.study.name}'`;
    case "update-study":
      return `update study ${spec.study.id}: ${described(change.fields)}`;
    case "create-site":
      return `create site ${change.site.id} '${change.site.label}'`;
    case "update-site":
      return `update site ${change.site.id}: ${described(change.fields)}`;
    case "retire-site":
      return `retire site ${change.siteId} '${change.label}' (its participants and their data stay)`;
    case "unretire-site":
      return `bring back site ${change.siteId} '${change.label}'`;
    case "create-instrument":
      return `create instrument ${change.instrument.slug} '${change.instrument.displayName}' (definition version 1 from ${change.instrument.definition.source})${importNotes(change.instrument)}`;
    case "update-instrument": {
      const parts = [
        ...(change.fields.length > 0 ? [described(change.fields)] : []),
        ...(change.newDefinitionVersion !== undefined
          ? [
              `new definition version ${change.newDefinitionVersion} from ${change.instrument.definition.source}`,
            ]
          : []),
      ];
      const notes = change.newDefinitionVersion !== undefined ? importNotes(change.instrument) : "";
      return `update instrument ${change.instrument.slug}: ${parts.join(", ")}${notes}`;
    }
    case "retire-instrument":
      return `retire instrument ${change.slug} (no new deliveries; its submissions stay)`;
    case "unretire-instrument":
      return `bring back instrument ${change.slug}`;
    case "create-consent":
      return `create consent ${change.consent.key} '${change.consent.title}' version 1 (offered to the study's participants)`;
    case "publish-consent":
      return `publish consent ${change.consent.key} '${change.consent.title}' version ${change.version} (participants who had not declined are asked to consent again)`;
    case "retire-consent":
      return `retire consent ${change.key} '${change.title}' (offered to no new participant; its signings stay)`;
    case "unretire-consent":
      return `bring back consent ${change.key} '${change.title}'`;
  }
}
