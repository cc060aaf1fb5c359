/**
 * Prints the JSON Schema of a survey definition, generated from the zod schema that the app and
 * the server validate with (core/contracts/survey-definition.ts). docs/survey-format.md embeds this
 * output as its appendix; a unit test fails when the two differ. After changing the schema:
 *
 *   node --import tsx scripts/print-survey-schema.ts
 *
 * and paste the output into the appendix.
 */
import { pathToFileURL } from "node:url";
import { surveyDefinitionJsonSchema } from "../core/survey-engine/definition-json-schema.ts";

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(surveyDefinitionJsonSchema(), null, 2));
}
