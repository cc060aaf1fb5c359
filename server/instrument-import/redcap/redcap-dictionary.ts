/**
 * Reading a REDCap data dictionary: the CSV REDCap exports from Project Setup ("Data Dictionary")
 * or the `instrument.csv` inside an instrument zip (the Shared Library format, beside
 * `OriginID.txt`). Columns are found by their header, as REDCap versions word them slightly
 * differently ("Choices, Calculations, OR Slider Labels"); older dictionaries lack the last
 * columns, which then read as empty. A file that is not a dictionary, or a row with fewer
 * columns than the header (a file cut short), is refused with the reason.
 */
import { strFromU8, unzipSync } from "fflate";
import { readCsvRecords } from "../../csv/read-csv-records.ts";
import { ImportError } from "../../instruments/import-instrument.ts";

export type DictionaryField = {
  /** The file line the field's record ends on, for messages. */
  line: number;
  name: string;
  form: string;
  sectionHeader: string;
  type: string;
  label: string;
  choices: string;
  note: string;
  validation: string;
  min: string;
  max: string;
  identifier: string;
  branching: string;
  required: string;
  alignment: string;
  questionNumber: string;
  matrixGroup: string;
  matrixRanking: string;
  annotation: string;
};

type Column = Exclude<keyof DictionaryField, "line">;

/** Each column by the start of its header, lower-cased with everything but letters and digits removed. */
const COLUMN_HEADERS: [Column, string][] = [
  ["name", "variablefieldname"],
  ["form", "formname"],
  ["sectionHeader", "sectionheader"],
  ["type", "fieldtype"],
  ["label", "fieldlabel"],
  ["choices", "choices"],
  ["note", "fieldnote"],
  ["validation", "textvalidationtype"],
  ["min", "textvalidationmin"],
  ["max", "textvalidationmax"],
  ["identifier", "identifier"],
  ["branching", "branchinglogic"],
  ["required", "requiredfield"],
  ["alignment", "customalignment"],
  ["questionNumber", "questionnumber"],
  ["matrixGroup", "matrixgroupname"],
  ["matrixRanking", "matrixranking"],
  ["annotation", "fieldannotation"],
];
const REQUIRED_COLUMNS: Column[] = ["name", "form", "type", "label", "choices"];
const HEADER_WORDING: Record<Column, string> = {
  name: "Variable / Field Name",
  form: "Form Name",
  sectionHeader: "Section Header",
  type: "Field Type",
  label: "Field Label",
  choices: "Choices, Calculations, OR Slider Labels",
  note: "Field Note",
  validation: "Text Validation Type OR Show Slider Number",
  min: "Text Validation Min",
  max: "Text Validation Max",
  identifier: "Identifier?",
  branching: "Branching Logic (Show field only if...)",
  required: "Required Field?",
  alignment: "Custom Alignment",
  questionNumber: "Question Number (surveys only)",
  matrixGroup: "Matrix Group Name",
  matrixRanking: "Matrix Ranking?",
  annotation: "Field Annotation",
};

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];

export type Dictionary = {
  fields: DictionaryField[];
  /** Where the fields came from, for messages: the file, or instrument.csv in it. */
  source: string;
  /** An instrument zip's OriginID.txt: the REDCap server it was exported from. */
  originId?: string | undefined;
  /** Whether it came from an instrument zip (one form, no record id field). */
  isZip: boolean;
};

function isZip(bytes: Uint8Array) {
  return ZIP_SIGNATURE.every((byte, index) => bytes[index] === byte);
}

function decodeText(bytes: Uint8Array, where: string): string {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    if (text.includes("\u0000")) throw new Error("binary content");
    return text;
  } catch {
    throw new ImportError(`${where} is not a text file: a REDCap data dictionary is a CSV file`);
  }
}

/** An instrument zip: instrument.csv (the form's dictionary) and OriginID.txt. */
function readInstrumentZip(bytes: Uint8Array, fileName: string): Dictionary {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes);
  } catch (error) {
    throw new ImportError(`${fileName} is not a readable zip file: ${(error as Error).message}`);
  }
  const names = Object.keys(entries).filter((name) => !name.startsWith("__MACOSX/"));
  const csvName = names.find((name) => name.split("/").at(-1)?.toLowerCase() === "instrument.csv");
  if (csvName === undefined) {
    throw new ImportError(
      `${fileName} is not a REDCap instrument zip: it holds no instrument.csv (it holds ${names.join(", ") || "nothing"})`,
    );
  }
  const originName = names.find((name) => name.split("/").at(-1)?.toLowerCase() === "originid.txt");
  const source = `instrument.csv in ${fileName}`;
  return {
    fields: readDictionaryCsv(decodeText(entries[csvName]!, source), source),
    source,
    isZip: true,
    originId: originName === undefined ? undefined : strFromU8(entries[originName]!).trim() || undefined,
  };
}

function readDictionaryCsv(text: string, source: string): DictionaryField[] {
  const records = readCsvRecords(text);
  if (typeof records === "string") throw new ImportError(`${source}: ${records}`);
  const [header, ...rows] = records;
  if (header === undefined)
    throw new ImportError(`${source} is empty: a REDCap data dictionary has a header row and fields`);
  const normalized = header.record.map((cell) => cell.toLowerCase().replace(/[^a-z0-9]/g, ""));
  const columnIndex = new Map<Column, number>();
  for (const [column, start] of COLUMN_HEADERS) {
    const index = normalized.findIndex((cell) => cell.startsWith(start));
    if (index >= 0) columnIndex.set(column, index);
  }
  const missing = REQUIRED_COLUMNS.filter((column) => !columnIndex.has(column));
  if (missing.length > 0) {
    throw new ImportError(
      `${source} is not a REDCap data dictionary: it lacks the column${missing.length > 1 ? "s" : ""} ${missing
        .map((column) => `"${HEADER_WORDING[column]}"`)
        .join(", ")}`,
    );
  }
  const filled = rows.filter(({ record }) => record.some((cell) => cell.trim() !== ""));
  // REDCap writes every column on every row: a row with fewer is a file cut short (a download
  // that failed part way), whose last field would be imported with its label or choices lost.
  const short = filled.find(({ record }) => record.length < header.record.length);
  if (short) {
    throw new ImportError(
      `${source}, line ${short.info.lines}: the row has ${short.record.length} of the header's ${header.record.length} columns; the file looks cut short (download it again)`,
    );
  }
  const fields = filled.map(({ record, info }) => {
    const cell = (column: Column) => {
      const index = columnIndex.get(column);
      return index === undefined ? "" : (record[index] ?? "");
    };
    const field = { line: info.lines } as DictionaryField;
    for (const [column] of COLUMN_HEADERS) field[column] = cell(column);
    for (const column of [
      "name",
      "form",
      "type",
      "validation",
      "required",
      "identifier",
      "matrixGroup",
      "matrixRanking",
    ] as const) {
      field[column] = field[column].trim();
    }
    field.type = field.type.toLowerCase();
    return field;
  });
  if (fields.length === 0) throw new ImportError(`${source} lists no fields`);
  for (const field of fields) {
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(field.name)) {
      throw new ImportError(
        `${source}, line ${field.line}: "${field.name}" is not a REDCap field name (letters, digits and _, starting with a letter)`,
      );
    }
    if (field.form === "")
      throw new ImportError(`${source}, line ${field.line}: field ${field.name} has no form name`);
    if (field.type === "")
      throw new ImportError(`${source}, line ${field.line}: field ${field.name} has no field type`);
  }
  return fields;
}

/** Reads a data dictionary CSV or an instrument zip; ImportError when it is neither. */
export function readDictionary(bytes: Uint8Array, fileName: string): Dictionary {
  if (isZip(bytes)) return readInstrumentZip(bytes, fileName);
  if (fileName.toLowerCase().endsWith(".zip")) {
    throw new ImportError(`${fileName} is not a readable zip file`);
  }
  return { fields: readDictionaryCsv(decodeText(bytes, fileName), fileName), source: fileName, isZip: false };
}
