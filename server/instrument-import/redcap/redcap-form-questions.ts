/**
 * The questions of one REDCap form: each field of the data dictionary as the survey question
 * that carries it (see read-redcap-instrument.ts for the mapping), matrix groups whose rows share
 * their choices as one matrix question, section headers as introductions, and calc fields set
 * aside to become scores. What a field says that its question does not carry is reported.
 */
import { MAX_DECIMALS, type Choice, type Question } from "../../../core/contracts/survey-definition.ts";
import type { ImportReportEntry } from "../imported-instrument.ts";
import type { DictionaryField } from "./redcap-dictionary.ts";
import type { ValueKind } from "./redcap-field-refs.ts";

/** REDCap's fixed choices of yesno and truefalse fields, in the order REDCap shows them. */
const FIXED_CHOICES: Record<string, [string, string][]> = {
  yesno: [
    ["1", "Yes"],
    ["0", "No"],
  ],
  truefalse: [
    ["1", "True"],
    ["0", "False"],
  ],
};
const CHOICE_TYPES = new Set(["radio", "dropdown", "yesno", "truefalse", "checkbox"]);
const DEFAULT_SLIDER_MAX = 100;

const NUMERIC = /^-?(\d+(\.\d*)?|\.\d+)$/;

type ParsedChoices = { codes: string[]; choices: Record<string, Choice>; numeric: boolean };

/** A built question and what the logic translators need to know about it. */
export type BuiltQuestion = {
  question: Question;
  valueKind: ValueKind;
  /** The REDCap fields it carries: one, or a matrix's rows, or none (a section header). */
  fields: DictionaryField[];
  codes: readonly string[];
  numericChoices: boolean;
  /** The branching logic to translate once every question's place is known. */
  branching?: { source: string; field: string } | undefined;
};

/** The question of a field that carries no choices. */
function ownQuestion(field: DictionaryField, question: Question, valueKind: ValueKind): BuiltQuestion {
  return { question, valueKind, fields: [field], codes: [], numericChoices: false };
}

/** Reads a form's fields, in order, into questions and calc fields (build), with its report. */
export class FormReader {
  readonly report: ImportReportEntry[] = [];
  private readonly built: BuiltQuestion[] = [];
  private readonly calcs: DictionaryField[] = [];
  private readonly usedIds = new Set<string>();
  private readonly extrasNoted = new Set<string>();

  constructor(private readonly fields: DictionaryField[]) {
    for (const field of fields) this.usedIds.add(field.name);
  }

  private note(source: string, problem: string) {
    this.report.push({ source, problem });
  }

  /** A label without REDCap's HTML, reported when something was removed. */
  private plain(text: string, source: string, what: string) {
    const stripped = text
      .replace(/<br\s*\/?>/gi, "\n")
      .replace(/<[^>]+>/g, "")
      .replace(/&nbsp;/g, " ")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&")
      .trim();
    if (stripped !== text.trim()) this.note(source, `HTML formatting removed from the ${what}`);
    if (/\[[a-z][a-z0-9_]*(\(\w+\))?\]/i.test(stripped)) {
      this.note(source, `the ${what} pipes another field's answer in ([field]): shown as written`);
    }
    return stripped;
  }

  /** A calc field's label, as a score's name (its field name when it has none). */
  scoreName(field: DictionaryField) {
    return this.plain(field.label, field.name, "label") || field.name;
  }

  private freshId(wanted: string) {
    let id = wanted;
    for (let suffix = 2; this.usedIds.has(id); suffix += 1) id = `${wanted}_${suffix}`;
    this.usedIds.add(id);
    return id;
  }

  private parseChoices(field: DictionaryField): ParsedChoices | undefined {
    const fixed = FIXED_CHOICES[field.type];
    const pairs: [string, string][] = [];
    if (fixed) {
      pairs.push(...fixed);
      if (field.choices.trim() !== "")
        this.note(
          field.name,
          `the choices written for a ${field.type} field are REDCap's fixed ones: ignored`,
        );
    } else {
      for (const part of field.choices.split("|")) {
        if (part.trim() === "") continue;
        const comma = part.indexOf(",");
        if (comma < 0) {
          this.note(field.name, `choice "${part.trim()}" is not written "code, label": field not imported`);
          return undefined;
        }
        pairs.push([part.slice(0, comma).trim(), part.slice(comma + 1).trim()]);
      }
    }
    if (pairs.length === 0) {
      this.note(field.name, "a choice field without choices: not imported");
      return undefined;
    }
    const codes = pairs.map(([code]) => code);
    const duplicate = codes.find((code, index) => code === "" || codes.indexOf(code) !== index);
    if (duplicate !== undefined) {
      this.note(field.name, `choice code "${duplicate}" is empty or written twice: field not imported`);
      return undefined;
    }
    const numeric = codes.every((code) => NUMERIC.test(code));
    const choices: Record<string, Choice> = {};
    for (const [code, label] of pairs) {
      choices[code] = {
        label: this.plain(label, `${field.name} choice ${code}`, "choice label"),
        ...(NUMERIC.test(code) ? { score_value: Number(code) } : {}),
      };
    }
    return { codes, choices, numeric };
  }

  /** The numeric bounds of a number field; reported and left out when they are not numbers. */
  private bounds(field: DictionaryField) {
    const bound = (value: string, which: string) => {
      const trimmed = value.trim();
      if (trimmed === "") return undefined;
      if (NUMERIC.test(trimmed)) return Number(trimmed);
      this.note(field.name, `the ${which} "${trimmed}" is not a number: not carried`);
      return undefined;
    };
    const min = bound(field.min, "minimum");
    const max = bound(field.max, "maximum");
    if (min !== undefined && max !== undefined && min > max) {
      this.note(field.name, `the minimum ${min} is above the maximum ${max}: bounds not carried`);
      return {};
    }
    return { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
  }

  /** Bounds on a field type that has none in the portal (dates, times): reported. */
  private boundsNotCarried(field: DictionaryField, what: string) {
    if (field.min.trim() !== "" || field.max.trim() !== "") {
      this.note(
        field.name,
        `the ${what} bounds (${field.min.trim() || "none"} to ${field.max.trim() || "none"}) are not carried: the portal does not bound ${what}s`,
      );
    }
  }

  private textQuestion(field: DictionaryField, base: Question): BuiltQuestion {
    const validation = field.validation.toLowerCase();
    if (/^date_(ymd|mdy|dmy)$/.test(validation)) {
      this.boundsNotCarried(field, "date");
      return ownQuestion(field, { ...base, type: "date" }, "date");
    }
    if (/^datetime(_seconds)?_(ymd|mdy|dmy)$/.test(validation)) {
      if (validation.startsWith("datetime_seconds"))
        this.note(field.name, "seconds are not kept: the portal records datetimes to the minute");
      this.boundsNotCarried(field, "datetime");
      return ownQuestion(field, { ...base, type: "datetime" }, "datetime");
    }
    if (validation === "time" || validation === "time_hh_mm_ss") {
      if (validation === "time_hh_mm_ss")
        this.note(field.name, "seconds are not kept: the portal records times to the minute");
      this.boundsNotCarried(field, "time");
      return ownQuestion(field, { ...base, type: "time" }, "time");
    }
    if (validation === "integer") {
      return ownQuestion(
        field,
        { ...base, type: "integer", attributes: { ...base.attributes, ...this.bounds(field) } },
        "number",
      );
    }
    if (/^number(_\d+dp)?(_comma_decimal)?$/.test(validation)) {
      // number_2dp keeps two decimals; a plain number field keeps what is typed, up to the
      // most a decimal answer holds. 2.25 stays 2.25.
      const places = /_(\d+)dp/.exec(validation)?.[1];
      const decimals =
        places === undefined ? MAX_DECIMALS : Math.min(Math.max(Number(places), 1), MAX_DECIMALS);
      if (places !== undefined && Number(places) > MAX_DECIMALS) {
        this.note(field.name, `${validation}: the portal keeps ${MAX_DECIMALS} decimals, not ${places}`);
      }
      return ownQuestion(
        field,
        {
          ...base,
          type: "decimal",
          attributes: { ...base.attributes, ...this.bounds(field), ...(decimals > 1 ? { decimals } : {}) },
        },
        "number",
      );
    }
    if (validation !== "") {
      this.note(field.name, `the text validation "${field.validation}" is not checked: kept as free text`);
    }
    if (field.min.trim() !== "" || field.max.trim() !== "") {
      this.note(field.name, "the validation bounds of a text field are not carried");
    }
    return ownQuestion(field, { ...base, type: "text" }, "text");
  }

  /** The question of one (non-matrix, non-calc) field, or undefined when it is reported instead. */
  private fieldQuestion(field: DictionaryField): BuiltQuestion | undefined {
    const source = field.name;
    const label = this.plain(field.label, source, "label");
    const required = field.required.toLowerCase() === "y";
    const base: Question = {
      id: field.name,
      type: "text",
      label,
      attributes: { required },
      ...(field.note.trim() === "" ? {} : { comments: this.plain(field.note, source, "field note") }),
    };
    switch (field.type) {
      case "text":
        return this.textQuestion(field, base);
      case "notes":
        this.note(source, "a notes field becomes a text question, which holds at most 140 characters");
        return ownQuestion(field, base, "text");
      case "radio":
      case "dropdown":
      case "yesno":
      case "truefalse":
      case "checkbox": {
        const parsed = this.parseChoices(field);
        if (!parsed) return undefined;
        const multi = field.type === "checkbox";
        return {
          question: {
            ...base,
            type: multi ? "select_multiple" : "select_one",
            choices: parsed.choices,
            choices_order: parsed.codes,
          },
          valueKind: multi ? "multi" : "choice",
          fields: [field],
          codes: parsed.codes,
          numericChoices: parsed.numeric,
        };
      }
      case "descriptive":
        if (required)
          this.note(source, "a descriptive field marked required: nothing to answer, so not required");
        return ownQuestion(field, { ...base, type: "prompt", attributes: { required: false } }, "none");
      case "slider": {
        const labels = field.choices.split("|").map((part) => this.plain(part, source, "slider label"));
        const [minLabel, ...others] = labels;
        const maxLabel = others.length > 0 ? others.at(-1) : undefined;
        if (labels.length === 3 && labels[1] !== "")
          this.note(
            source,
            `the slider's middle label "${labels[1]}" is not shown: a rating scale has labels at its ends`,
          );
        if (labels.length > 3)
          this.note(source, "the slider has more than three labels: only the two ends are kept");
        const bounds = this.bounds(field);
        return ownQuestion(
          field,
          {
            ...base,
            type: "numeric_rating_scale",
            attributes: {
              ...base.attributes,
              min: bounds.min ?? 0,
              max: bounds.max ?? DEFAULT_SLIDER_MAX,
              ...(minLabel ? { min_label: minLabel } : {}),
              ...(maxLabel ? { max_label: maxLabel } : {}),
            },
          },
          "number",
        );
      }
      case "file":
        if (field.validation.toLowerCase() === "signature") {
          return ownQuestion(field, { ...base, type: "scribble" }, "none");
        }
        this.note(
          source,
          "a file upload becomes a photo question (image capture): documents and other files are not taken",
        );
        return ownQuestion(field, { ...base, type: "image_capture" }, "none");
      case "sql":
        this.note(source, "an sql field (choices from a database query) cannot be imported: not imported");
        return undefined;
      default:
        this.note(
          source,
          `the field type "${field.type}" is not a REDCap field type the import knows: not imported`,
        );
        return undefined;
    }
  }

  /** Reports what a field says that the question does not carry (flags, layout, annotations). */
  private noteExtras(field: DictionaryField) {
    if (this.extrasNoted.has(field.name)) return;
    this.extrasNoted.add(field.name);
    if (field.identifier.toLowerCase() === "y") {
      this.note(
        field.name,
        "marked as an identifier (protected health information): the portal keeps no such flag",
      );
    }
    if (field.alignment.trim() !== "")
      this.note(
        field.name,
        `the custom alignment "${field.alignment.trim()}" is not carried: the portal lays out questions itself`,
      );
    if (field.questionNumber.trim() !== "")
      this.note(field.name, `the survey question number "${field.questionNumber.trim()}" is not carried`);
    if (field.annotation.trim() !== "")
      this.note(field.name, `the field annotation "${field.annotation.trim()}" is not carried`);
    if (field.matrixRanking.toLowerCase() === "y")
      this.note(field.name, "matrix ranking (one column per row) is not carried");
  }

  private sectionHeader(field: DictionaryField) {
    if (field.sectionHeader.trim() === "") return;
    const id = this.freshId(`${field.name}_section`);
    this.built.push({
      question: {
        id,
        type: "introduction",
        label: this.plain(field.sectionHeader, field.name, "section header"),
        attributes: { required: false },
      },
      valueKind: "none",
      fields: [],
      codes: [],
      numericChoices: false,
    });
  }

  private withBranching(built: BuiltQuestion, field: DictionaryField): BuiltQuestion {
    const source = field.branching.trim();
    return source === "" ? built : { ...built, branching: { source, field: field.name } };
  }

  /** A matrix group's rows as one matrix question, or undefined (reported) when they cannot be. */
  private matrix(group: string, rows: DictionaryField[]): BuiltQuestion | undefined {
    const first = rows[0]!;
    const why = (() => {
      if (!rows.every((row) => row.type === "radio" || row.type === "dropdown")) {
        return "its rows are not all single-choice (radio) fields";
      }
      if (!rows.every((row) => normalizeChoices(row.choices) === normalizeChoices(first.choices))) {
        return "its rows do not share the same choices";
      }
      if (rows.slice(1).some((row) => row.sectionHeader.trim() !== "")) return "a section header splits it";
      return undefined;
    })();
    if (why !== undefined) {
      this.note(`matrix group ${group}`, `kept as separate questions: ${why}`);
      return undefined;
    }
    const parsed = this.parseChoices(first);
    if (!parsed) return undefined;
    const id = this.freshId(group);
    const required = rows.some((row) => row.required.toLowerCase() === "y");
    if (required && !rows.every((row) => row.required.toLowerCase() === "y")) {
      this.note(`matrix group ${group}`, "some rows are required and some not: the whole matrix is required");
    }
    const questions: Question["questions"] = {};
    for (const row of rows) {
      questions[row.name] = {
        id: row.name,
        label: this.plain(row.label, row.name, "label"),
        attributes: { required: false },
      };
      if (row.note.trim() !== "") this.note(row.name, "a matrix row's field note is not carried");
    }
    const logics = new Set(rows.map((row) => row.branching.trim()));
    if (logics.size > 1) {
      this.note(
        `matrix group ${group}`,
        "its rows have different branching logic: the matrix is shown when the first row's logic holds",
      );
    }
    const header = first.sectionHeader.trim();
    return this.withBranching(
      {
        question: {
          id,
          type: "matrix",
          label: header === "" ? group : this.plain(header, first.name, "section header"),
          attributes: { required },
          choices: parsed.choices,
          choices_order: parsed.codes,
          questions,
          questions_order: rows.map((row) => row.name),
        },
        valueKind: "choice",
        fields: rows,
        codes: parsed.codes,
        numericChoices: parsed.numeric,
      },
      first,
    );
  }

  build(): { questions: BuiltQuestion[]; calcs: DictionaryField[] } {
    for (let index = 0; index < this.fields.length; index += 1) {
      const field = this.fields[index]!;
      this.noteExtras(field);
      if (field.type === "calc") {
        if (field.sectionHeader.trim() !== "") this.sectionHeader(field);
        this.calcs.push(field);
        continue;
      }
      const group = field.matrixGroup;
      if (group !== "" && CHOICE_TYPES.has(field.type)) {
        let end = index + 1;
        while (end < this.fields.length && this.fields[end]!.matrixGroup === group) end += 1;
        const rows = this.fields.slice(index, end);
        if (rows.length > 1) {
          for (const row of rows.slice(1)) this.noteExtras(row);
          const matrix = this.matrix(group, rows);
          if (matrix) {
            this.built.push(matrix);
            index = end - 1;
            continue;
          }
        }
      }
      this.sectionHeader(field);
      const built = this.fieldQuestion(field);
      if (built) this.built.push(this.withBranching(built, field));
    }
    return { questions: this.built, calcs: this.calcs };
  }
}

function normalizeChoices(choices: string) {
  return choices
    .split("|")
    .map((part) => part.trim().replace(/\s*,\s*/, ","))
    .join("|");
}
