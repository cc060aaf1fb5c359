/**
 * Where a survey definition is downloaded from (spec 02 §7), in one place for the route loader's
 * query and the early download that index.html starts before the app's JavaScript has arrived.
 * No imports beyond request-url.ts: the early script bundles this file.
 */
import { buildUrl } from "./request-url.ts";

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

/** The query parameters of the definition call: the route's own, passed through. */
export function definitionQuery({ searchStr }: DefinitionAddress) {
  return Object.fromEntries(new URLSearchParams(searchStr));
}

/** The whole URL the definition call fetches; the early download is taken when it is this one. */
export function definitionUrl(address: DefinitionAddress) {
  return buildUrl(definitionPath(address), definitionQuery(address));
}

const POSITIVE_ID = /^[1-9]\d{0,9}$/;
const INSTRUMENT_ROUTE =
  /^\/studies\/(\d+)\/sites\/(\d+)\/participants\/(\d+)\/instruments\/(\d+)\/([^/]+)\/?$/;

/**
 * The definition address of an instrument route's URL (router.tsx's instrumentRoute path), or
 * undefined for any other page. Ids the router would refuse give undefined too: the early
 * download is only an head start, the route loader stays the judge.
 */
export function instrumentRouteAddress(pathname: string, search: string): DefinitionAddress | undefined {
  const match = INSTRUMENT_ROUTE.exec(pathname);
  if (!match) return undefined;
  const [, studyId, siteId, participantId, instrumentId, instrument] = match;
  if (![studyId, siteId, participantId, instrumentId].every((id) => POSITIVE_ID.test(id ?? ""))) {
    return undefined;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(instrument!);
  } catch {
    return undefined;
  }
  return {
    studyId: Number(studyId),
    instrumentId: Number(instrumentId),
    instrument: decoded,
    searchStr: search,
  };
}
