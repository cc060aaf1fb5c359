/**
 * Reading a CDISC ODM 1.3.2 file into plain objects (fast-xml-parser), and the few helpers the
 * form reader needs to walk them: elements that may repeat always as lists, the text of a
 * TranslatedText in English (or the first one), attributes by name. Namespace prefixes are
 * dropped: ODM files are written with and without an `odm:` prefix.
 *
 * A file that is not well-formed XML, holds a DOCTYPE (ODM never does; refusing it rules out
 * entity expansion), or whose root is not ODM is refused with an ImportError naming the reason.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { ImportError } from "../../instruments/import-instrument.ts";

/** An element as parsed: attributes by name, child elements by name, text as "#text". */
export type OdmNode = { [name: string]: unknown };

/** The elements that may occur more than once where the reader looks for them. */
const REPEATING = new Set([
  "Study",
  "MetaDataVersion",
  "FormDef",
  "ItemGroupDef",
  "ItemGroupRef",
  "ItemDef",
  "ItemRef",
  "CodeList",
  "CodeListItem",
  "EnumeratedItem",
  "RangeCheck",
  "CheckValue",
  "FormalExpression",
  "MethodDef",
  "ConditionDef",
  "MeasurementUnit",
  "MeasurementUnitRef",
  "TranslatedText",
  "Alias",
  "Role",
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // Decodes numeric character references (&#10;) as well as the five XML entities.
  htmlEntities: true,
  isArray: (name) => REPEATING.has(name),
});

/** Parses the file and returns its ODM root element. */
export function parseOdmDocument(bytes: Uint8Array, fileName: string): OdmNode {
  const text = new TextDecoder("utf-8").decode(bytes).replace(/^\uFEFF/, "");
  if (text.trim() === "") throw new ImportError(`${fileName} is empty`);
  if (/<!DOCTYPE/i.test(text))
    throw new ImportError(`${fileName} holds a DOCTYPE, which an ODM file never does`);
  const wellFormed = XMLValidator.validate(text);
  if (wellFormed !== true) {
    const { msg, line, col } = wellFormed.err;
    throw new ImportError(`${fileName} is not well-formed XML: line ${line}, column ${col}: ${msg}`);
  }
  const parsed = parser.parse(text) as OdmNode;
  const root = parsed["ODM"];
  // An empty <ODM/> parses as "": an ODM file without content, refused later for want of a form.
  if (root === "") return {};
  if (root === undefined || typeof root !== "object" || root === null) {
    const found = Object.keys(parsed).filter((name) => !name.startsWith("?"));
    throw new ImportError(
      `${fileName} is not a CDISC ODM file: its root element is ${found[0] ?? "missing"}, not ODM`,
    );
  }
  return root as OdmNode;
}

/** The child elements of one name, as a list (none when absent). */
export function children(node: OdmNode | undefined, name: string): OdmNode[] {
  const value = node?.[name];
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry) =>
    typeof entry === "object" && entry !== null ? (entry as OdmNode) : { "#text": String(entry) },
  );
}

export function child(node: OdmNode | undefined, name: string): OdmNode | undefined {
  return children(node, name)[0];
}

/** An attribute's value, or undefined. */
export function attribute(node: OdmNode | undefined, name: string): string | undefined {
  const value = node?.[name];
  return typeof value === "string" ? value : undefined;
}

export function textOf(node: OdmNode | undefined): string {
  const value = node?.["#text"];
  return value === undefined || value === null ? "" : String(value);
}

/**
 * The English text of an element holding TranslatedTexts (Question, Decode, Description...):
 * the one with xml:lang "en" (or "en-..."), else the one without a language, else the first.
 */
export function translatedText(node: OdmNode | undefined): string | undefined {
  const texts = children(node, "TranslatedText");
  if (texts.length === 0) return undefined;
  const language = (text: OdmNode) => attribute(text, "lang")?.toLowerCase();
  const chosen =
    texts.find((text) => language(text) === "en" || language(text)?.startsWith("en-")) ??
    texts.find((text) => language(text) === undefined) ??
    texts[0]!;
  return textOf(chosen);
}

/** Elements in OrderNumber order where given, document order otherwise (a stable sort). */
export function inOrder(nodes: OdmNode[]): OdmNode[] {
  const orderOf = (node: OdmNode) => {
    const order = Number(attribute(node, "OrderNumber"));
    return Number.isFinite(order) ? order : Number.POSITIVE_INFINITY;
  };
  return nodes
    .map((node, index) => ({ node, index }))
    .sort((a, b) => orderOf(a.node) - orderOf(b.node) || a.index - b.index)
    .map(({ node }) => node);
}
