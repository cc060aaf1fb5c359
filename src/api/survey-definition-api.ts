import { queryOptions } from "@tanstack/react-query";
import * as z from "zod/mini";
import {
  formatDefinitionProblem,
  parseSurveyDefinition,
} from "../../core/survey-engine/validate-definition.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { DefinitionFileError, readDefinitionBody } from "../survey/read-definition-body.ts";
import {
  readValidatedDefinition,
  rememberValidatedDefinition,
  validatedDefinitionKey,
} from "../survey/validated-definitions.ts";
import {
  definitionBodyQuery,
  surveyDefinitionKeys,
  type DefinitionAddress,
} from "./survey-definition-body.ts";

/** What the definition call adds about the instrument itself (contracts' definitionResponse). */
const instrumentFacts = z.object({
  display_name: z.optional(z.string()),
  permissions: z.optional(z.array(z.string())),
});

export type LoadedDefinition = {
  definition: SurveyDefinition;
  displayName: string | undefined;
  /** The role codes that may administer the instrument; unknown for an older server. */
  permissions: string[] | undefined;
};

/**
 * Reads (unzipping when needed) and validates a definition; problems name question and field.
 * One the server checked for this very app version (validated_for_app) is taken as checked: the
 * server ran these same rules on it. A body this device validated before is taken from
 * validated-definitions.ts instead of being validated again.
 */
export async function parseDefinitionBody(body: unknown): Promise<LoadedDefinition> {
  const json = await readDefinitionBody(body);
  if (isCheckedForThisApp(json)) return loadedDefinition(json, json as SurveyDefinition);
  const key = await validatedDefinitionKey(body, __APP_VERSION__);
  const known = key === undefined ? undefined : await readValidatedDefinition<LoadedDefinition>(key);
  if (known) return known;
  const loaded = validateDefinition(json);
  // Once the page is idle: storing copies the whole definition, and the first question waits
  // for nothing but the validation.
  if (key !== undefined) whenIdle(() => void rememberValidatedDefinition(key, loaded));
  return loaded;
}

function isCheckedForThisApp(json: unknown) {
  return (
    typeof json === "object" &&
    json !== null &&
    (json as { validated_for_app?: unknown }).validated_for_app === __APP_VERSION__
  );
}

function whenIdle(work: () => void) {
  if (typeof requestIdleCallback === "function") requestIdleCallback(work, { timeout: 2_000 });
  else setTimeout(work, 0);
}

function validateDefinition(json: unknown): LoadedDefinition {
  const parsed = parseSurveyDefinition(json);
  if (!parsed.ok) {
    throw new DefinitionFileError(parsed.problems.map(formatDefinitionProblem).join("; "));
  }
  return loadedDefinition(json, parsed.definition);
}

function loadedDefinition(json: unknown, definition: SurveyDefinition): LoadedDefinition {
  const facts = instrumentFacts.safeParse(json);
  // The server's mark is no part of the survey: a submission carries a copy of it.
  const { validated_for_app: _mark, ...survey } = definition as SurveyDefinition & {
    validated_for_app?: unknown;
  };
  return {
    definition: survey,
    displayName: facts.success ? facts.data.display_name : undefined,
    permissions: facts.success ? facts.data.permissions : undefined,
  };
}

export const surveyDefinitionQuery = (address: DefinitionAddress) =>
  queryOptions({
    queryKey: surveyDefinitionKeys.parsed(address),
    // The download itself may already be under way: the route's loader started it.
    queryFn: async ({ client }) =>
      parseDefinitionBody(await client.ensureQueryData(definitionBodyQuery(address))),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    networkMode: "offlineFirst",
  });
