/**
 * What a new definition version changes, as a data manager reads it before adding it: questions
 * added, removed and changed (and in what), the order, the title, the scores. An empty list
 * means the two definitions are the same: importing the file again adds no version.
 */
import { isDeepStrictEqual } from "node:util";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The JSON with its object keys sorted: PostgreSQL's jsonb stores keys in its own order, so a
 * definition read back differs from the file only in an order that means nothing.
 */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical(value[key])]),
  );
}

/** Whether two definitions (as stored, or as read from a file) are the same JSON. */
export function sameDefinition(before: unknown, after: unknown) {
  return isDeepStrictEqual(canonical(before), canonical(after));
}

function recordOf(value: unknown): Json {
  return isObject(value) ? value : {};
}

function labelOf(question: unknown) {
  const label = recordOf(question).label;
  return typeof label === "string" && label.trim() !== "" ? ` "${label.trim().slice(0, 60)}"` : "";
}

/** The fields of a question that differ, in the order they are written in the new one. */
function changedFields(before: Json, after: Json) {
  const keys = [...new Set([...Object.keys(after), ...Object.keys(before)])];
  return keys.filter((key) => !sameDefinition(before[key], after[key]));
}

function scoresById(definition: Json) {
  const scores = Array.isArray(definition.scores) ? definition.scores : [];
  return new Map(scores.filter(isObject).map((score) => [String(score.id), score]));
}

/** One line per change from `before` to `after`; [] when they are the same definition. */
export function describeDefinitionChanges(before: unknown, after: unknown): string[] {
  if (sameDefinition(before, after)) return [];
  const old = recordOf(before);
  const next = recordOf(after);
  const lines: string[] = [];
  if (!sameDefinition(old.title, next.title)) {
    lines.push(`title: "${String(old.title ?? "")}" becomes "${String(next.title ?? "")}"`);
  }
  const oldQuestions = recordOf(old.questions);
  const newQuestions = recordOf(next.questions);
  for (const [id, question] of Object.entries(newQuestions)) {
    if (!Object.hasOwn(oldQuestions, id)) lines.push(`question ${id}${labelOf(question)} added`);
  }
  for (const [id, question] of Object.entries(oldQuestions)) {
    if (!Object.hasOwn(newQuestions, id)) lines.push(`question ${id}${labelOf(question)} removed`);
  }
  for (const [id, question] of Object.entries(newQuestions)) {
    if (!Object.hasOwn(oldQuestions, id)) continue;
    const fields = changedFields(recordOf(oldQuestions[id]), recordOf(question));
    if (fields.length > 0) lines.push(`question ${id}${labelOf(question)} changes its ${fields.join(", ")}`);
  }
  const kept = (order: unknown, questions: Json) =>
    (Array.isArray(order) ? order : []).filter((id) => Object.hasOwn(questions, String(id)));
  if (!sameDefinition(kept(old.order, newQuestions), kept(next.order, oldQuestions))) {
    lines.push("the questions are asked in another order");
  }
  const oldScores = scoresById(old);
  const newScores = scoresById(next);
  for (const [id, score] of newScores) {
    if (!oldScores.has(id)) lines.push(`score ${id} added`);
    else if (!sameDefinition(oldScores.get(id), score)) lines.push(`score ${id} changes`);
  }
  for (const id of oldScores.keys()) if (!newScores.has(id)) lines.push(`score ${id} removed`);
  const described = new Set(["title", "questions", "order", "scores"]);
  const others = changedFields(old, next).filter((key) => !described.has(key));
  if (others.length > 0) lines.push(`the definition's ${others.join(", ")} change`);
  return lines;
}
