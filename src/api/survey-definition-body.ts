/**
 * The definition call's raw answer (the JSON's text, or a Blob for a zip), kept apart from parsing
 * so that the instrument route's loader can start the download as soon as navigation begins,
 * while the route's code (the survey engine) is still on its way. When index.html's early script
 * already sent this very call, the loader takes its response instead of sending it again.
 */
import { queryOptions } from "@tanstack/react-query";
import { getStoredUser } from "../auth/session-store.ts";
import { takeEarlyDefinition } from "./early-definition.ts";
import { request } from "./request.ts";
import {
  definitionPath,
  definitionQuery,
  definitionUrl,
  type DefinitionAddress,
} from "./survey-definition-url.ts";

export { definitionPath, type DefinitionAddress } from "./survey-definition-url.ts";

/** A survey definition's queries: its downloaded body and the definition parsed from it. */
export const surveyDefinitionKeys = {
  all: ["survey-definition"] as const,
  body: (address: DefinitionAddress) =>
    [
      ...surveyDefinitionKeys.all,
      "body",
      address.studyId,
      address.instrumentId,
      address.instrument,
      address.searchStr,
    ] as const,
  parsed: (address: DefinitionAddress) =>
    [
      ...surveyDefinitionKeys.all,
      "parsed",
      address.studyId,
      address.instrumentId,
      address.instrument,
      address.searchStr,
    ] as const,
};

export const definitionBodyQuery = (address: DefinitionAddress) =>
  queryOptions({
    queryKey: surveyDefinitionKeys.body(address),
    queryFn: ({ signal }) =>
      request<string | Blob>({
        path: definitionPath(address),
        query: definitionQuery(address),
        // The text, not a parsed value: its key in validated-definitions.ts is a hash of these
        // bytes, where a parsed value would have to be serialised again (tens of ms at 1,000
        // questions on a tablet).
        responseType: "raw",
        handle403Locally: true,
        signal,
        sent: takeEarlyDefinition(definitionUrl(address), getStoredUser()?.token),
      }),
    // A definition does not change under an open instrument; the worker caches it for offline.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    // Asked even without a network: the service worker answers from its cache (any delivery of
    // an instrument opened once). React Query's default would pause it while offline, and the
    // page would wait for ever on a definition the device has.
    networkMode: "offlineFirst",
  });
