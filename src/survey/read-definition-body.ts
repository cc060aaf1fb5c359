/**
 * A definition download is a JSON survey or a zip holding one JSON file (spec 02 section 7).
 * This turns either into the parsed JSON value; the engine validates it afterwards. The unzipper
 * (fflate) loads only when a zip arrives: most definitions are JSON, and it stays out of the
 * instrument route's download.
 */

export class DefinitionFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DefinitionFileError";
  }
}

/** Reads the zip's single JSON file (folders and macOS "__MACOSX" metadata are ignored). */
export async function jsonFromZip(bytes: Uint8Array): Promise<unknown> {
  const { strFromU8, unzipSync } = await import("fflate");
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, {
      filter: (file) => !file.name.endsWith("/") && !file.name.startsWith("__MACOSX/"),
    });
  } catch {
    throw new DefinitionFileError("The instrument file is not a readable zip.");
  }
  const jsonFiles = Object.keys(entries).filter((name) => name.toLowerCase().endsWith(".json"));
  if (jsonFiles.length !== 1) {
    throw new DefinitionFileError(
      `The instrument zip must hold one JSON file; it holds ${jsonFiles.length}.`,
    );
  }
  try {
    return JSON.parse(strFromU8(entries[jsonFiles[0]!]!)) as unknown;
  } catch {
    throw new DefinitionFileError(`${jsonFiles[0]} in the instrument zip is not valid JSON.`);
  }
}

/**
 * The body as the definition call read it: the JSON's text, or a Blob for anything else (zip).
 * A value already parsed passes through.
 */
export async function readDefinitionBody(body: unknown): Promise<unknown> {
  if (body instanceof Blob) return await jsonFromZip(new Uint8Array(await body.arrayBuffer()));
  if (typeof body !== "string") return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new DefinitionFileError("The instrument file is not valid JSON.");
  }
}
