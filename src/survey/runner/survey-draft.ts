/**
 * What a survey in progress saves to the draft store after every answer: the flow, the answers
 * being edited (including those of the current step not yet confirmed with Next) and the photos
 * they name. A draft of another definition version is not resumed: its questions may differ.
 *
 * On the page the photos and signatures are Blobs; in the store they are bytes and type
 * (StoredSurveyDraft), as WebKit's private storage refuses to store a Blob. A draft an older
 * version saved with a Map of Blobs is still read.
 */
import type { AnswerEntry } from "../../../core/contracts/survey-answers.ts";
import type { FlowState } from "../../../core/survey-engine/flow.ts";

export type SurveyDraft = {
  /** The definition's id and version the answers belong to. */
  definitionKey: string;
  flow: FlowState;
  answers: Record<string, AnswerEntry[]>;
  files: Map<string, Blob>;
};

export function definitionKeyOf(definition: { id: string | number; version?: string | number | undefined }) {
  return `${definition.id}@${definition.version ?? ""}`;
}

/** The blobs still named by an answer: a deleted or replaced photo is not kept or uploaded. */
export function referencedFiles(
  answers: Readonly<Record<string, readonly AnswerEntry[]>>,
  files: ReadonlyMap<string, Blob>,
): Map<string, Blob> {
  const kept = new Map<string, Blob>();
  for (const entries of Object.values(answers)) {
    for (const entry of entries) {
      if (typeof entry.value !== "string") continue;
      const blob = files.get(entry.value);
      if (blob) kept.set(entry.value, blob);
    }
  }
  return kept;
}

/** A draft's file as the store keeps it. */
export type StoredDraftFile = { name: string; type: string; bytes: ArrayBuffer };

export type StoredSurveyDraft = Omit<SurveyDraft, "files"> & { files: StoredDraftFile[] };

/**
 * Each Blob's bytes, read once: a draft is saved after every change, and its photos (megabytes)
 * do not change between saves.
 */
const bytesOfBlob = new WeakMap<Blob, Promise<ArrayBuffer>>();

function bytesOf(blob: Blob) {
  let bytes = bytesOfBlob.get(blob);
  if (!bytes) {
    bytes = blob.arrayBuffer();
    bytesOfBlob.set(blob, bytes);
  }
  return bytes;
}

export async function toStoredSurveyDraft(draft: SurveyDraft): Promise<StoredSurveyDraft> {
  const files = await Promise.all(
    [...draft.files].map(async ([name, blob]) => ({ name, type: blob.type, bytes: await bytesOf(blob) })),
  );
  return { ...draft, files };
}

/** The draft as the page holds it, from what the store kept (this version's, or a Map of Blobs). */
export function fromStoredSurveyDraft(stored: StoredSurveyDraft | SurveyDraft): SurveyDraft {
  if (stored.files instanceof Map) return stored as SurveyDraft;
  const files = new Map<string, Blob>();
  for (const file of stored.files) {
    const blob = new Blob([file.bytes], { type: file.type });
    bytesOfBlob.set(blob, Promise.resolve(file.bytes));
    files.set(file.name, blob);
  }
  return { ...stored, files };
}
