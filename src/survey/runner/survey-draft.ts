/**
 * What a survey in progress saves to the draft store after every answer: the flow, the answers
 * being edited (including those of the current step not yet confirmed with Next) and the photos
 * they name. A draft of another definition version is not resumed: its questions may differ.
 */
import type { AnswerEntry } from "../engine/answers.ts";
import type { FlowState } from "../engine/flow.ts";

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
