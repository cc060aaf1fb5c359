import { queryOptions } from "@tanstack/react-query";
import { formatDefinitionProblem, parseSurveyDefinition } from "../survey/engine/validate-definition.ts";
import type { SurveyDefinition } from "../survey/engine/definition.ts";
import { DefinitionFileError, readDefinitionBody } from "../survey/read-definition-body.ts";
import { request } from "./request.ts";

export type DefinitionAddress = {
  studyId: number;
  instrumentId: number;
  /** The {instrument} segment of the route. */
  instrument: string;
  /** The route's query string ("?a=1" or ""), passed through to the load call. */
  searchStr: string;
};

/**
 * GET /control/admin/studies/{studyId}/instruments/{instrumentId}/{instrument} plus the query
 * string: the instrument's url with its studies segment under admin/studies (spec 02 §7).
 */
export function definitionPath({ studyId, instrumentId, instrument }: DefinitionAddress) {
  return `/control/admin/studies/${studyId}/instruments/${instrumentId}/${encodeURIComponent(instrument)}`;
}

/** Downloads, unzips when needed, and validates a definition; problems name question and field. */
export async function fetchSurveyDefinition(
  address: DefinitionAddress,
  signal?: AbortSignal,
): Promise<SurveyDefinition> {
  const body = await request({
    path: definitionPath(address),
    query: Object.fromEntries(new URLSearchParams(address.searchStr)),
    responseType: "auto",
    handle403Locally: true,
    signal,
  });
  const parsed = parseSurveyDefinition(await readDefinitionBody(body));
  if (!parsed.ok) {
    throw new DefinitionFileError(parsed.problems.map(formatDefinitionProblem).join("; "));
  }
  return parsed.definition;
}

export const surveyDefinitionQuery = (address: DefinitionAddress) =>
  queryOptions({
    queryKey: [
      "survey-definition",
      address.studyId,
      address.instrumentId,
      address.instrument,
      address.searchStr,
    ],
    queryFn: ({ signal }) => fetchSurveyDefinition(address, signal),
    // A definition does not change under an open instrument; the worker caches it for offline.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
