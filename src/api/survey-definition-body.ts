/**
 * The definition call's raw answer (a JSON value, or a Blob for a zip), kept apart from parsing
 * so that the instrument route's loader can start the download as soon as navigation begins,
 * while the route's code (the survey engine) is still on its way.
 */
import { queryOptions } from "@tanstack/react-query";
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

export const definitionBodyQuery = (address: DefinitionAddress) =>
  queryOptions({
    queryKey: [
      "survey-definition-body",
      address.studyId,
      address.instrumentId,
      address.instrument,
      address.searchStr,
    ],
    queryFn: ({ signal }) =>
      request<unknown>({
        path: definitionPath(address),
        query: Object.fromEntries(new URLSearchParams(address.searchStr)),
        responseType: "auto",
        handle403Locally: true,
        signal,
      }),
    // A definition does not change under an open instrument; the worker caches it for offline.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
