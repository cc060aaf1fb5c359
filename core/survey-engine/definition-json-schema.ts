/**
 * The JSON Schema of a survey definition, generated from the zod schema that the app and the
 * server validate with (definition.ts). docs/survey-format.md embeds it as its appendix
 * (scripts/print-survey-schema.ts prints it); a unit test fails when the two differ.
 */
import * as z from "zod/mini";
import { surveyDefinition } from "../contracts/survey-definition.ts";

/** The JSON Schema of what an author writes (zod "input": defaults make fields optional). */
export function surveyDefinitionJsonSchema(): unknown {
  return z.toJSONSchema(surveyDefinition, { io: "input", unrepresentable: "any" });
}
