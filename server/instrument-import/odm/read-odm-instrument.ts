/**
 * Reads a clinician instrument from CDISC ODM 1.3.2 form metadata (`clinro instrument import
 * --from odm`): the form's ItemGroupDefs, in order, become the questions of one survey
 * definition, and everything the portal cannot carry is named in the import report.
 *
 * How ODM maps:
 * - The first FormDef of the first MetaDataVersion holding one is imported; every other form
 *   is reported as not imported.
 * - ItemDef → question: the id is the ItemDef's Name when it is a plain token (letters, digits,
 *   `_ . -`), else its OID made one; the label its Question (English, or the first), the
 *   ItemDef's Description the comments; Mandatory="Yes" → required.
 * - A CodeListRef → select one, a choice per CodeListItem (CodedValue as id, Decode as label)
 *   whose score is its Rank, else its CodedValue when that is a number. Otherwise by DataType:
 *   integer, float/double → decimal, text/string, date, datetime, time; boolean → select one
 *   Yes (1) / No (0). Other data types are imported as text and reported.
 * - RangeCheck GE/GT/LE/LT on a number → min/max; other range checks are reported.
 * - MeasurementUnitRef on a number → unit.
 * - An ItemRef with a MethodOID is a computed item: its MethodDef becomes a score when its
 *   FormalExpression is the portal's formula language (Context "clinro-formula", items named
 *   as {Name}), or a plain sum of items (`IT.A + IT.B` or `sum(IT.A, IT.B)`, by OID or Name);
 *   other methods are reported and the item is not imported.
 * - A CollectionExceptionConditionOID whose ConditionDef holds the portal's show-if JSON
 *   (Context "clinro-show-if-json") becomes the question's show-if logic; others are reported
 *   and the question is always shown.
 * - The portal's own Aliases (odm-conventions.ts), as its ODM export writes them, restore
 *   matrices, select-multiple and multiple-field questions from their items, likert, rating
 *   scale, photo and drawing types, and sibling groups; any other Alias is reported.
 * Logic, a formula or a sibling group the engine refuses (a later question, an unknown one) is
 * left out and reported; anything else the engine refuses refuses the file, with the engine's
 * problems.
 */
import type {
  Question,
  Score,
  ShowIfTerm,
  SurveyDefinition,
} from "../../../core/contracts/survey-definition.ts";
import { LIKERT_CHOICE_COUNTS, TEXT_MAX_CHARACTERS } from "../../../core/contracts/survey-definition.ts";
import {
  formatDefinitionProblem,
  parseSurveyDefinition,
} from "../../../core/survey-engine/validate-definition.ts";
import { ImportError, slugFrom } from "../../instruments/import-instrument.ts";
import {
  FORMULA_CONTEXT,
  QUESTION_ALIAS_CONTEXT,
  QUESTION_TYPE_ALIAS_CONTEXT,
  SHOW_IF_CONTEXT,
  SIBLING_GROUP_ALIAS_CONTEXT,
} from "../../study-export/odm/odm-conventions.ts";
import type { ImportReportEntry, InstrumentReader } from "../imported-instrument.ts";
import {
  attribute,
  child,
  children,
  inOrder,
  parseOdmDocument,
  textOf,
  translatedText,
  type OdmNode,
} from "./odm-document.ts";

/** Ids that formulas and show-if terms can name. */
const PLAIN_ID = /^[A-Za-z0-9_.-]{1,200}$/;

type Context = {
  report: ImportReportEntry[];
  itemDefs: Map<string, OdmNode>;
  codeLists: Map<string, OdmNode>;
  methods: Map<string, OdmNode>;
  conditions: Map<string, OdmNode>;
  units: Map<string, string>;
  /** Question ids given so far, and by which ItemDef OID and Name each item is known. */
  usedIds: Set<string>;
  usedScoreIds: Set<string>;
  idByItem: Map<string, string>;
};

export const readOdmInstrument: InstrumentReader = (bytes, fileName) => {
  const odm = parseOdmDocument(bytes, fileName);
  const report: ImportReportEntry[] = [];
  const studies = children(odm, "Study");
  const versions = studies.flatMap((study) =>
    children(study, "MetaDataVersion").map((version) => ({ study, version })),
  );
  const withForm = versions.find(({ version }) => children(version, "FormDef").length > 0);
  if (!withForm) throw new ImportError(`${fileName} holds no FormDef: there is no form to import`);
  const { study, version } = withForm;
  const [form, ...otherForms] = children(version, "FormDef") as [OdmNode, ...OdmNode[]];
  for (const other of [
    ...otherForms,
    ...versions
      .filter((entry) => entry.version !== version)
      .flatMap((entry) => children(entry.version, "FormDef")),
  ]) {
    report.push({
      source: `FormDef ${attribute(other, "OID") ?? "(no OID)"}`,
      problem: "only the first form of the file is imported: this form is not",
    });
  }
  if (child(version, "Include")) {
    report.push({
      source: `MetaDataVersion ${attribute(version, "OID") ?? ""}`,
      problem:
        "Include (metadata of another version) is not followed: only this version's own definitions are read",
    });
  }

  const byOid = (name: string) =>
    new Map(children(version, name).map((node) => [attribute(node, "OID") ?? "", node] as const));
  const context: Context = {
    report,
    itemDefs: byOid("ItemDef"),
    codeLists: byOid("CodeList"),
    methods: byOid("MethodDef"),
    conditions: byOid("ConditionDef"),
    units: new Map(
      children(child(study, "BasicDefinitions"), "MeasurementUnit").map((unit) => [
        attribute(unit, "OID") ?? "",
        translatedText(child(unit, "Symbol")) ?? attribute(unit, "Name") ?? "",
      ]),
    ),
    usedIds: new Set(),
    usedScoreIds: new Set(),
    idByItem: new Map(),
  };
  const groups = byOid("ItemGroupDef");

  const questions: Record<string, Question> = {};
  const order: string[] = [];
  const computed: { ref: OdmNode; itemDef: OdmNode }[] = [];
  const conditioned: { questionId: string; conditionOid: string }[] = [];
  const seenItems = new Set<string>();
  /** Matrices, select-multiple and multiple-field questions, rebuilt from their items. */
  const composites = new Map<string, Question>();
  const siblings: Record<string, string[]> = {};
  for (const groupRef of inOrder(children(form, "ItemGroupRef"))) {
    const groupOid = attribute(groupRef, "ItemGroupOID") ?? "";
    const group = groups.get(groupOid);
    if (!group) {
      report.push({
        source: `ItemGroupRef ${groupOid}`,
        problem: "names an ItemGroupDef the file does not define: skipped",
      });
      continue;
    }
    if (attribute(group, "Repeating") === "Yes") {
      report.push({
        source: `ItemGroupDef ${groupOid}`,
        problem: "a repeating item group is imported as asked once: the portal has no repeating groups",
      });
    }
    const siblingId = aliasName(group, SIBLING_GROUP_ALIAS_CONTEXT);
    for (const ref of inOrder(children(group, "ItemRef"))) {
      const itemOid = attribute(ref, "ItemOID") ?? "";
      const itemDef = context.itemDefs.get(itemOid);
      if (!itemDef) {
        report.push({
          source: `ItemRef ${itemOid} in ${groupOid}`,
          problem: "names an ItemDef the file does not define: skipped",
        });
        continue;
      }
      if (seenItems.has(itemOid)) {
        report.push({
          source: `ItemRef ${itemOid} in ${groupOid}`,
          problem: "the item is already in the form: asked once only",
        });
        continue;
      }
      seenItems.add(itemOid);
      if (attribute(ref, "MethodOID") !== undefined) {
        computed.push({ ref, itemDef });
        continue;
      }
      for (const ignored of ["ImputationMethodOID", "Role", "RoleCodeListOID"]) {
        if (attribute(ref, ignored) !== undefined)
          report.push({ source: `ItemRef ${itemOid}`, problem: `${ignored} is not imported` });
      }
      const part = partOf(itemDef);
      let question = part ? composites.get(part.questionId) : undefined;
      if (part && question) {
        addPart(question, part, itemDef, context);
        continue;
      }
      if (part) {
        question = startComposite(part, itemDef, attribute(ref, "Mandatory") === "Yes", context);
        composites.set(part.questionId, question);
        addPart(question, part, itemDef, context);
      } else {
        question = questionOf(itemDef, attribute(ref, "Mandatory") === "Yes", context);
      }
      questions[question.id] = question;
      order.push(question.id);
      if (siblingId !== undefined) {
        question.sibling_id = siblingId;
        (siblings[siblingId] ??= []).push(question.id);
      }
      const conditionOid = attribute(ref, "CollectionExceptionConditionOID");
      if (conditionOid !== undefined) conditioned.push({ questionId: question.id, conditionOid });
    }
  }
  if (order.length === 0)
    throw new ImportError(`${fileName}: the form ${attribute(form, "OID") ?? ""} holds no item to ask`);

  for (const { questionId, conditionOid } of conditioned) {
    const logic = logicOf(questionId, conditionOid, context);
    if (logic) questions[questionId] = { ...questions[questionId]!, logic };
  }
  const scores = computed.flatMap(({ ref, itemDef }) => scoreOf(ref, itemDef, context));

  const title = attribute(form, "Name") ?? translatedText(child(form, "Description")) ?? fileName;
  const slug = slugFrom(title) || slugFrom(fileName.replace(/\.[^.]*$/, "")) || "odm-form";
  const definition = engineChecked(
    { id: slug, type: "CLINRO", title, version: 1, order, questions, siblings, scores },
    report,
  );
  return { definition, title, slug, report };
};

function aliasName(node: OdmNode, aliasContext: string): string | undefined {
  return attribute(
    children(node, "Alias").find((alias) => attribute(alias, "Context") === aliasContext),
    "Name",
  );
}

const COMPOSITE_TYPES = ["matrix", "select_multiple", "multiple_field"] as const;
type Part = { questionId: string; type: (typeof COMPOSITE_TYPES)[number] };

/** The question a matrix row, select-multiple choice or multiple-field field belongs to (the portal's Aliases). */
function partOf(itemDef: OdmNode): Part | undefined {
  const questionId = aliasName(itemDef, QUESTION_ALIAS_CONTEXT);
  const type = aliasName(itemDef, QUESTION_TYPE_ALIAS_CONTEXT);
  const known = COMPOSITE_TYPES.find((candidate) => candidate === type);
  return questionId !== undefined && questionId !== "" && known ? { questionId, type: known } : undefined;
}

function startComposite(part: Part, itemDef: OdmNode, required: boolean, context: Context): Question {
  const id = uniqueId(
    PLAIN_ID.test(part.questionId) ? part.questionId : oidAsId(part.questionId),
    context.usedIds,
  );
  context.idByItem.set(part.questionId, id);
  const question: Question = {
    id,
    type: part.type,
    label: translatedText(child(itemDef, "Description")) ?? part.questionId,
    attributes: { required },
  };
  if (part.type === "matrix") {
    const choices = choicesOf(
      attribute(child(itemDef, "CodeListRef"), "CodeListOID") ?? "",
      context,
      `ItemDef ${attribute(itemDef, "OID") ?? ""}`,
    );
    Object.assign(question, choices ?? { choices: {}, choices_order: [] });
  }
  if (part.type === "select_multiple") Object.assign(question, { choices: {}, choices_order: [] });
  else Object.assign(question, { questions: {}, questions_order: [] });
  return question;
}

/** Adds one item to its rebuilt question: a row, a choice or a field. */
function addPart(question: Question, part: Part, itemDef: OdmNode, context: Context) {
  const oid = attribute(itemDef, "OID") ?? "";
  const name = attribute(itemDef, "Name") ?? oid;
  const partId = name.startsWith(`${part.questionId}.`) ? name.slice(part.questionId.length + 1) : name;
  context.idByItem.set(oid, question.id);
  const label = translatedText(child(itemDef, "Question")) ?? partId;
  if (part.type === "select_multiple") {
    const codeList = context.codeLists.get(attribute(child(itemDef, "CodeListRef"), "CodeListOID") ?? "");
    const chosen = children(codeList, "CodeListItem").find((entry) => attribute(entry, "CodedValue") === "1");
    const rank = Number(attribute(chosen, "Rank"));
    question.choices![partId] = {
      label: translatedText(child(chosen, "Decode")) ?? label,
      ...(attribute(chosen, "Rank") !== undefined && Number.isFinite(rank) ? { score_value: rank } : {}),
    };
    question.choices_order!.push(partId);
    return;
  }
  const dataType = attribute(itemDef, "DataType");
  const fieldType =
    dataType === "integer" ? "integer" : dataType === "float" || dataType === "double" ? "decimal" : "text";
  // The bounds and unit of a field are read as a question's would be.
  const asQuestion: Question = { id: partId, type: fieldType, label, attributes: { required: false } };
  for (const check of children(itemDef, "RangeCheck"))
    applyRangeCheck(asQuestion, check, context, `ItemDef ${oid}`);
  const unit = context.units.get(attribute(child(itemDef, "MeasurementUnitRef"), "MeasurementUnitOID") ?? "");
  if (unit && fieldType !== "text") asQuestion.attributes.unit = unit;
  question.questions![partId] = {
    id: partId,
    label,
    ...(part.type === "multiple_field" ? { type: fieldType } : {}),
    attributes: asQuestion.attributes,
  };
  question.questions_order!.push(partId);
}

function questionOf(itemDef: OdmNode, required: boolean, context: Context): Question {
  const oid = attribute(itemDef, "OID") ?? "";
  const name = attribute(itemDef, "Name");
  const id = uniqueId(name !== undefined && PLAIN_ID.test(name) ? name : oidAsId(oid), context.usedIds);
  context.idByItem.set(oid, id);
  if (name !== undefined) context.idByItem.set(name, id);
  const source = `ItemDef ${oid}`;
  const label = translatedText(child(itemDef, "Question")) ?? name ?? oid;
  const question: Question = { id, type: "text", label, attributes: { required } };
  const description = translatedText(child(itemDef, "Description"));
  if (description) question.comments = description;
  if (child(itemDef, "ExternalQuestion"))
    context.report.push({
      source,
      problem: "ExternalQuestion (a coded instrument reference) is not imported",
    });

  const dataType = attribute(itemDef, "DataType") ?? "text";
  const codeListOid = attribute(child(itemDef, "CodeListRef"), "CodeListOID");
  if (codeListOid !== undefined) {
    const choices = choicesOf(codeListOid, context, source);
    if (choices) Object.assign(question, { type: "select_one" }, choices);
  } else if (dataType === "integer") {
    question.type = "integer";
  } else if (dataType === "float" || dataType === "double") {
    question.type = "decimal";
  } else if (dataType === "date" || dataType === "datetime" || dataType === "time") {
    question.type = dataType;
  } else if (dataType === "boolean") {
    Object.assign(question, {
      type: "select_one",
      choices: { "1": { label: "Yes", score_value: 1 }, "0": { label: "No", score_value: 0 } },
      choices_order: ["1", "0"],
    });
  } else if (dataType !== "text" && dataType !== "string") {
    context.report.push({
      source,
      problem: `DataType ${dataType} has no question type in the portal: imported as text`,
    });
  }

  const length = Number(attribute(itemDef, "Length"));
  if (question.type === "text" && length > TEXT_MAX_CHARACTERS) {
    context.report.push({
      source,
      problem: `Length ${length}: text answers hold at most ${TEXT_MAX_CHARACTERS} characters in the portal`,
    });
  }
  const isNumber = question.type === "integer" || question.type === "decimal";
  for (const unitRef of children(itemDef, "MeasurementUnitRef")) {
    const unit = context.units.get(attribute(unitRef, "MeasurementUnitOID") ?? "");
    if (isNumber && unit && question.attributes.unit === undefined) question.attributes.unit = unit;
    else
      context.report.push({
        source,
        problem: "a measurement unit is imported only once, on a number: not imported",
      });
  }
  for (const check of children(itemDef, "RangeCheck")) applyRangeCheck(question, check, context, source);
  for (const alias of children(itemDef, "Alias")) applyAlias(question, alias, context, source);
  return question;
}

/** The portal's own question-type Alias restores a likert or a rating scale; other aliases are reported. */
function applyAlias(question: Question, alias: OdmNode, context: Context, source: string) {
  const aliasContext = attribute(alias, "Context") ?? "";
  const name = attribute(alias, "Name") ?? "";
  if (aliasContext === QUESTION_TYPE_ALIAS_CONTEXT) {
    const choiceCount = question.choices_order?.length ?? 0;
    if (
      name === "likert" &&
      question.type === "select_one" &&
      (LIKERT_CHOICE_COUNTS as readonly number[]).includes(choiceCount)
    ) {
      question.type = "likert";
      return;
    }
    if (name === "numeric_rating_scale" && question.type === "integer") {
      question.type = "numeric_rating_scale";
      return;
    }
    // Photos (file names) and drawings (PNG data URLs) travel as text.
    if ((name === "image_capture" || name === "scribble") && question.type === "text") {
      question.type = name;
      return;
    }
  }
  context.report.push({ source, problem: `Alias ${aliasContext} "${name}" is not imported` });
}

function oidAsId(oid: string): string {
  const made = oid.replace(/[^A-Za-z0-9_.-]+/g, "_").slice(0, 200);
  return made === "" ? "item" : made;
}

function uniqueId(wanted: string, used: Set<string>): string {
  let id = wanted;
  for (let suffix = 2; used.has(id); suffix += 1) id = `${wanted}_${suffix}`;
  used.add(id);
  return id;
}

function choicesOf(codeListOid: string, context: Context, source: string) {
  const codeList = context.codeLists.get(codeListOid);
  if (!codeList) {
    context.report.push({
      source,
      problem: `names CodeList ${codeListOid}, which the file does not define: imported as text`,
    });
    return undefined;
  }
  if (child(codeList, "ExternalCodeList")) {
    context.report.push({
      source: `CodeList ${codeListOid}`,
      problem:
        "an external code list (a dictionary such as MedDRA) cannot be imported: the question is imported as text",
    });
    return undefined;
  }
  const entries = inOrder([...children(codeList, "CodeListItem"), ...children(codeList, "EnumeratedItem")]);
  const choices: Record<string, { label: string; score_value?: number }> = {};
  const choicesOrder: string[] = [];
  for (const entry of entries) {
    const coded = attribute(entry, "CodedValue") ?? "";
    if (coded === "" || choices[coded]) {
      context.report.push({
        source: `CodeList ${codeListOid}`,
        problem: `coded value "${coded}" is empty or repeated: skipped`,
      });
      continue;
    }
    const rank = attribute(entry, "Rank");
    const score = rank !== undefined ? Number(rank) : Number(coded);
    choices[coded] = {
      label: translatedText(child(entry, "Decode")) ?? coded,
      ...(coded.trim() !== "" && Number.isFinite(score) ? { score_value: score } : {}),
    };
    choicesOrder.push(coded);
  }
  if (choicesOrder.length === 0) {
    context.report.push({
      source: `CodeList ${codeListOid}`,
      problem: "holds no coded value: the question is imported as text",
    });
    return undefined;
  }
  return { choices, choices_order: choicesOrder };
}

function applyRangeCheck(question: Question, check: OdmNode, context: Context, source: string) {
  const comparator = attribute(check, "Comparator");
  const values = children(check, "CheckValue").map((value) => Number(textOf(value)));
  const bound = values.length === 1 && Number.isFinite(values[0]) ? values[0]! : undefined;
  const isNumber = question.type === "integer" || question.type === "decimal";
  const describe = `RangeCheck ${comparator ?? "(no comparator)"} ${children(check, "CheckValue").map(textOf).join(", ")}`;
  if (!isNumber || bound === undefined || !["GE", "GT", "LE", "LT"].includes(comparator ?? "")) {
    context.report.push({
      source,
      problem: `${describe}: only a bound on a number is imported; not imported`,
    });
    return;
  }
  const strict = comparator === "GT" || comparator === "LT";
  // A strict bound on whole numbers is the next whole number; on decimals the portal's bounds are inclusive.
  const step = strict && question.type === "integer" ? 1 : 0;
  if (strict && question.type === "decimal")
    context.report.push({ source, problem: `${describe}: imported as an inclusive bound` });
  if (attribute(check, "SoftHard") === "Soft")
    context.report.push({ source, problem: `${describe}: a soft check becomes a hard bound in the portal` });
  if (comparator === "GE" || comparator === "GT") question.attributes.min = bound + step;
  else question.attributes.max = bound - step;
}

/** `{Name}` references in the portal's formula language, mapped to the question ids given. */
function formulaFromPortalNotation(expression: string, context: Context): string | undefined {
  let unknown = false;
  const formula = expression.replace(/\{([^}]*)\}/g, (whole, inside: string) => {
    if (inside.startsWith("score:")) return whole;
    const id = context.idByItem.get(inside.trim());
    if (id === undefined) unknown = true;
    return `{${id ?? inside}}`;
  });
  return unknown ? undefined : formula;
}

/** `A + B + C` or `sum(A, B, C)` over item OIDs or Names: a plain sum. */
function formulaFromPlainSum(expression: string, context: Context): string | undefined {
  const inner = /^\s*sum\s*\((.*)\)\s*$/i.exec(expression)?.[1];
  const parts = inner !== undefined ? inner.split(",") : expression.split("+");
  const ids = parts.map((part) => context.idByItem.get(part.trim()));
  if (ids.length === 0 || ids.some((id) => id === undefined)) return undefined;
  return `sum(${ids.map((id) => `{${id}}`).join(", ")})`;
}

function scoreOf(ref: OdmNode, itemDef: OdmNode, context: Context): Score[] {
  const itemOid = attribute(itemDef, "OID") ?? "";
  const methodOid = attribute(ref, "MethodOID") ?? "";
  const method = context.methods.get(methodOid);
  const source = `ItemDef ${itemOid} (MethodDef ${methodOid})`;
  if (!method) {
    context.report.push({
      source,
      problem: "a computed item whose MethodDef the file does not define: not imported",
    });
    return [];
  }
  let formula: string | undefined;
  for (const expression of children(method, "FormalExpression")) {
    const text = textOf(expression);
    formula =
      attribute(expression, "Context") === FORMULA_CONTEXT
        ? formulaFromPortalNotation(text, context)
        : formulaFromPlainSum(text, context);
    if (formula) break;
  }
  if (!formula) {
    const written = children(method, "FormalExpression")
      .map((expression) => `${attribute(expression, "Context") ?? "no context"}: ${textOf(expression)}`)
      .join("; ");
    context.report.push({
      source,
      problem: `the method is neither a plain sum of items nor in the portal's formula language (${written || "no FormalExpression"}): not imported as a score`,
    });
    return [];
  }
  if (children(itemDef, "RangeCheck").length > 0)
    context.report.push({
      source,
      problem: "a range check on a computed item: scores have no bounds in the portal; not imported",
    });
  const name = attribute(itemDef, "Name") ?? itemOid;
  const label = translatedText(child(itemDef, "Question")) ?? attribute(method, "Name") ?? name;
  const description = translatedText(child(method, "Description"));
  const id = uniqueId(PLAIN_ID.test(name) ? name : oidAsId(itemOid), context.usedScoreIds);
  return [{ id, name: label, formula, ...(description ? { description } : {}) }];
}

function logicOf(questionId: string, conditionOid: string, context: Context): Question["logic"] | undefined {
  const condition = context.conditions.get(conditionOid);
  const source = `Question ${questionId} (ConditionDef ${conditionOid})`;
  const expression = children(condition, "FormalExpression").find(
    (candidate) => attribute(candidate, "Context") === SHOW_IF_CONTEXT,
  );
  if (!condition || !expression) {
    const written = children(condition, "FormalExpression")
      .map((candidate) => `${attribute(candidate, "Context") ?? "no context"}: ${textOf(candidate)}`)
      .join("; ");
    context.report.push({
      source,
      problem: `the collection exception condition is not in a form the portal reads (${written || "not defined"}): the question is always shown`,
    });
    return undefined;
  }
  try {
    const parsed = JSON.parse(textOf(expression)) as { show_if?: ShowIfTerm[]; operator?: "and" | "or" };
    const remap = (term: ShowIfTerm): ShowIfTerm =>
      term.comparator === "boolean_combine"
        ? { ...term, terms: term.terms.map(remap) }
        : { ...term, question: context.idByItem.get(term.question) ?? term.question };
    return { show_if: (parsed.show_if ?? []).map(remap), operator: parsed.operator === "or" ? "or" : "and" };
  } catch (error) {
    context.report.push({
      source,
      problem: `the show-if JSON does not read (${(error as Error).message}): the question is always shown`,
    });
    return undefined;
  }
}

/**
 * Passes the definition to the engine. Logic and scores are the parts a source can get wrong
 * without the form being unusable: a question's logic or a score the engine refuses is left out
 * and reported. Anything else refuses the file.
 */
function engineChecked(candidate: SurveyDefinition, report: ImportReportEntry[]): SurveyDefinition {
  let definition = candidate;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const parsed = parseSurveyDefinition(definition);
    if (parsed.ok) return parsed.definition;
    const questions = { ...definition.questions };
    let scores = [...definition.scores];
    let fixable = true;
    for (const problem of parsed.problems) {
      const scoreIndex = /^scores\[(\d+)\]/.exec(problem.field)?.[1];
      if (
        problem.question !== undefined &&
        problem.field.startsWith("logic") &&
        questions[problem.question]
      ) {
        const { logic: _dropped, ...rest } = questions[problem.question]!;
        questions[problem.question] = rest as Question;
        report.push({
          source: `Question ${problem.question}`,
          problem: `show-if logic not imported: ${formatDefinitionProblem(problem)}`,
        });
      } else if (
        problem.field.startsWith("sibling") ||
        (problem.field === "type" && problem.message.includes("sibling group"))
      ) {
        for (const [id, question] of Object.entries(questions)) {
          const { sibling_id: _dropped, ...rest } = question;
          questions[id] = rest as Question;
        }
        if (Object.keys(definition.siblings).length > 0)
          report.push({
            source: "Sibling groups",
            problem: `not imported: ${formatDefinitionProblem(problem)}`,
          });
        definition = { ...definition, siblings: {} };
      } else if (scoreIndex !== undefined && definition.scores[Number(scoreIndex)]) {
        const score = definition.scores[Number(scoreIndex)]!;
        scores = scores.filter((kept) => kept !== score);
        report.push({
          source: `Score ${score.id}`,
          problem: `not imported: ${formatDefinitionProblem(problem)}`,
        });
      } else {
        fixable = false;
      }
    }
    if (!fixable)
      throw new ImportError(
        "The form read from the ODM file does not pass the survey format",
        parsed.problems,
      );
    definition = { ...definition, questions, scores };
  }
  throw new ImportError("The form read from the ODM file does not pass the survey format");
}
