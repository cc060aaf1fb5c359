/**
 * Whether an upload's content, read as a whole, is what its name says and is safe to show.
 *
 *   JPEG, PNG  decoded in full (sharp, libvips) to prove they are images of that format, within
 *              a pixel limit (a small file that would decode to gigabytes is refused); refused
 *              when they also hold HTML or script anywhere in their bytes (a polyglot a browser
 *              could sniff as a page), and a PNG must end with its IEND chunk.
 *   SVG        parsed as XML and refused when it holds anything that runs or reaches out: a
 *              DOCTYPE or entities, processing instructions, <script>, <foreignObject>, HTML
 *              elements, animation (which can set links), on* event handlers, javascript: URLs,
 *              links or url(...) references to anything but the image itself (#id) or an
 *              embedded PNG/JPEG/GIF/WebP, CSS @import. Then rendered, to prove it is an image.
 *   PDF, Word  their signature (file-signature.ts), as before.
 *   CSV        text: UTF-8 (with or without a byte order mark) or a one-byte Windows encoding,
 *              with no NUL or other control characters but tab, line feed, carriage return
 *              and form feed (a binary file renamed .csv is refused), and no HTML or script a
 *              browser could sniff as a page (as for JPEG and PNG).
 *
 * Refused files are not changed into safe ones: the uploader gets a 415 that says why.
 */
import { SaxesParser, type SaxesTagNS } from "saxes";
import sharp from "sharp";
import { matchesSignature } from "./file-signature.ts";

/** 40 megapixels: any phone photo; refuses images that would decode to gigabytes. */
export const MAX_IMAGE_PIXELS = 40_000_000;

export type ContentCheck = { ok: true } | { ok: false; reason: string };

const refuse = (reason: string): ContentCheck => ({ ok: false, reason });
const OK: ContentCheck = { ok: true };

/**
 * Text that makes a browser take bytes for a page or run them: an HTML tag (its name then a
 * space, > or /), a doctype, PHP, a javascript: URL; case-insensitive. Requiring the character
 * after a tag's name keeps random compressed bytes from matching (under one photo in 10^5).
 */
const ACTIVE_CONTENT =
  /<(script|html|body|head|iframe|object|embed|frameset)[\s>/]|<!doctype|<\?php|javascript:/i;

export function activeContentMarker(bytes: Uint8Array): string | undefined {
  // latin1 maps each byte to one character, so the text is the bytes.
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  return ACTIVE_CONTENT.exec(text)?.[0].trim();
}

const PNG_END = [0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];

const FORMAT_NAMES: Record<string, string> = { jpeg: "JPEG", png: "PNG", svg: "SVG" };

async function decodeImage(bytes: Uint8Array, expected: "jpeg" | "png" | "svg"): Promise<ContentCheck> {
  const name = FORMAT_NAMES[expected]!;
  try {
    const image = sharp(bytes, { failOn: "error", limitInputPixels: MAX_IMAGE_PIXELS });
    const metadata = await image.metadata();
    if (metadata.format !== expected) {
      const actual = FORMAT_NAMES[metadata.format] ?? metadata.format.toUpperCase();
      return refuse(`The file is a ${actual} image, not the ${name} its name says.`);
    }
    // Every pixel decoded (stats reads the whole image), so a truncated or corrupt file fails here.
    await image.stats();
    return OK;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(message)) {
      return refuse(`The ${name} image is too large: at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`);
    }
    return refuse(`The file is not a valid ${name} image: it could not be decoded.`);
  }
}

async function checkRaster(bytes: Uint8Array, expected: "jpeg" | "png"): Promise<ContentCheck> {
  const name = FORMAT_NAMES[expected]!;
  const marker = activeContentMarker(bytes);
  if (marker) {
    return refuse(`The ${name} file also holds HTML or script ("${marker}"); such a file is refused.`);
  }
  if (expected === "png") {
    const tail = bytes.subarray(bytes.length - PNG_END.length);
    if (tail.length !== PNG_END.length || PNG_END.some((value, index) => tail[index] !== value)) {
      return refuse("The PNG file has data after its end (IEND chunk), or no end; such a file is refused.");
    }
  }
  return decodeImage(bytes, expected);
}

const SVG_NS = "http://www.w3.org/2000/svg";
/** Namespaces whose elements a browser would run or render as a document inside the SVG. */
const ACTIVE_NAMESPACES: Record<string, string> = {
  "http://www.w3.org/1999/xhtml": "an HTML element",
  "http://www.w3.org/1998/Math/MathML": "a MathML element",
  "http://www.w3.org/1999/XSL/Transform": "an XSLT element",
  "http://www.w3.org/1999/xlink": "an XLink element",
};
const REFUSED_SVG_ELEMENTS = new Set([
  "script",
  "foreignobject",
  "iframe",
  "embed",
  "object",
  "audio",
  "video",
  "canvas",
  "handler",
  "listener",
  "animate",
  "animatemotion",
  "animatetransform",
  "animatecolor",
  "set",
  "discard",
]);

/** The value as a browser reads a URL: without whitespace and control characters, lower-cased. */
const squeezed = (value: string) =>
  [...value]
    .filter((character) => {
      const code = character.charCodeAt(0);
      return code > 0x20 && (code < 0x7f || code > 0xa0);
    })
    .join("")
    .toLowerCase();

/** A link that stays inside the image: a fragment (#id), or an embedded raster image. */
const SAFE_LINK = /^(#.*|data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/=]*)$/;
/** url( whose target is not a fragment of this image. */
const EXTERNAL_URL = /url\((?!['"]?#)/;

/** Why this text (an attribute value or a stylesheet) is refused, if it is. */
function activeText(value: string): string | undefined {
  const text = squeezed(value);
  for (const scheme of ["javascript:", "vbscript:", "data:text/html", "data:image/svg"]) {
    if (text.includes(scheme)) return `a ${scheme} URL`;
  }
  if (EXTERNAL_URL.test(text)) return "a url(...) reference to another file";
  if (text.includes("@import")) return "a CSS @import";
  if (text.includes("expression(")) return "a CSS expression";
  return undefined;
}

/** Why this SVG text is refused, or undefined when it holds nothing active. */
export function svgProblem(source: string): string | undefined {
  let problem: string | undefined;
  let depth = 0;
  let rootSeen = false;
  let styleDepth = 0;
  const fail = (reason: string) => {
    problem ??= reason;
  };
  const parser = new SaxesParser({ xmlns: true });
  parser.on("doctype", () => fail("a DOCTYPE (entity declarations)"));
  parser.on("processinginstruction", (instruction) =>
    fail(`a processing instruction (<?${instruction.target}?>)`),
  );
  parser.on("opentag", (tag: SaxesTagNS) => {
    depth += 1;
    const local = tag.local.toLowerCase();
    if (depth === 1) {
      rootSeen = true;
      if (tag.uri !== SVG_NS || local !== "svg") fail("a root element other than <svg> in the SVG namespace");
    }
    const active = ACTIVE_NAMESPACES[tag.uri];
    if (active) fail(`${active} (<${tag.name}>)`);
    if (tag.uri === SVG_NS && REFUSED_SVG_ELEMENTS.has(local)) fail(`a <${tag.name}> element`);
    if (tag.uri === SVG_NS && local === "style") styleDepth = depth;
    for (const attribute of Object.values(tag.attributes)) {
      const name = attribute.local.toLowerCase();
      if (name.startsWith("on")) fail(`an event handler (${attribute.name})`);
      else if (name === "href" || name === "src" || name === "action" || name === "formaction") {
        if (!SAFE_LINK.test(squeezed(attribute.value))) {
          fail(`a link to another file or page (${attribute.name}="${attribute.value.slice(0, 60)}")`);
        }
      } else {
        const reason = activeText(attribute.value);
        if (reason) fail(`${reason} (in ${attribute.name})`);
      }
    }
  });
  parser.on("closetag", () => {
    if (depth === styleDepth) styleDepth = 0;
    depth -= 1;
  });
  const checkStyle = (text: string) => {
    if (styleDepth === 0) return;
    const reason = activeText(text);
    if (reason) fail(`${reason} (in a <style> element)`);
  };
  parser.on("text", checkStyle);
  parser.on("cdata", checkStyle);
  try {
    parser.write(source).close();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return problem ?? `XML that is not well-formed (${message.split("\n")[0]})`;
  }
  if (!rootSeen) return problem ?? "no <svg> element";
  return problem;
}

async function checkSvg(bytes: Uint8Array): Promise<ContentCheck> {
  let source: string;
  try {
    source = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return refuse("The SVG file is not UTF-8 text.");
  }
  const problem = svgProblem(source);
  if (problem) {
    return refuse(
      `The SVG file holds ${problem}. SVG images may not hold scripts, event handlers, links or references to other files, or embedded documents.`,
    );
  }
  return decodeImage(bytes, "svg");
}

/** Control characters a text file never holds: all below space but tab, LF, FF and CR; DEL. */
function isControlByte(value: number) {
  return (
    (value < 0x20 && value !== 0x09 && value !== 0x0a && value !== 0x0c && value !== 0x0d) || value === 0x7f
  );
}

function checkCsv(bytes: Uint8Array): ContentCheck {
  const controlAt = bytes.findIndex(isControlByte);
  if (controlAt >= 0) {
    return refuse(
      `The CSV file is not text: it holds a control character (byte ${controlAt + 1}). Save it as CSV (comma-separated values) and send it again.`,
    );
  }
  const marker = activeContentMarker(bytes);
  if (marker) {
    return refuse(`The CSV file also holds HTML or script ("${marker}"); such a file is refused.`);
  }
  return OK;
}

/**
 * Checks an upload's bytes against the type its name says (extension in lower case). The
 * reason of a refusal is meant for the uploader.
 */
export async function checkUploadContent(extension: string, bytes: Uint8Array): Promise<ContentCheck> {
  switch (extension) {
    case "jpg":
    case "jpeg":
      if (!matchesSignature(extension, bytes)) return refuse("The file is not a JPEG image.");
      return checkRaster(bytes, "jpeg");
    case "png":
      if (!matchesSignature(extension, bytes)) return refuse("The file is not a PNG image.");
      return checkRaster(bytes, "png");
    case "svg":
      return checkSvg(bytes);
    case "csv":
      return checkCsv(bytes);
    default:
      return matchesSignature(extension, bytes)
        ? OK
        : refuse(`The file's content is not a ${extension.toUpperCase()} file.`);
  }
}
