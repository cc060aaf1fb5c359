import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { DefinitionFileError, readDefinitionBody } from "./read-definition-body.ts";

const SURVEY = { id: 7, type: "CLINRO", order: ["q1"], questions: {} };
const zipBlob = (files: Record<string, Uint8Array>) => new Blob([zipSync(files)]);

describe("readDefinitionBody: a JSON survey, or a zip holding one JSON file", () => {
  it("parses a JSON body's text, and passes a value already parsed through as it is", async () => {
    await expect(readDefinitionBody(JSON.stringify(SURVEY))).resolves.toEqual(SURVEY);
    await expect(readDefinitionBody(SURVEY)).resolves.toBe(SURVEY);
  });

  it("refuses a JSON body that does not parse", async () => {
    await expect(readDefinitionBody("{ not json")).rejects.toThrow("The instrument file is not valid JSON.");
  });

  it("reads the one JSON file of a zip, ignoring folders and macOS metadata", async () => {
    const body = zipBlob({
      "ham-d.json": strToU8(JSON.stringify(SURVEY)),
      "__MACOSX/._ham-d.json": strToU8("metadata"),
      "readme.txt": strToU8("not a survey"),
    });
    await expect(readDefinitionBody(body)).resolves.toEqual(SURVEY);
  });

  it("refuses a zip of two JSON files, a zip whose JSON does not parse and bytes that are no zip", async () => {
    const two = zipBlob({ "a.json": strToU8("{}"), "b.json": strToU8("{}") });
    await expect(readDefinitionBody(two)).rejects.toThrow("must hold one JSON file; it holds 2");
    const broken = zipBlob({ "a.json": strToU8("{ not json") });
    await expect(readDefinitionBody(broken)).rejects.toThrow(
      "a.json in the instrument zip is not valid JSON",
    );
    await expect(readDefinitionBody(new Blob(["plain text"]))).rejects.toBeInstanceOf(DefinitionFileError);
  });
});
