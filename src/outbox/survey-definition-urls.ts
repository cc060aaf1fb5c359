/**
 * Which requests are survey definitions (spec 02 section 7): GET
 * /control/studies/{studyId}/instruments/{instrumentId}/{instrument}, also under admin/studies.
 * The service worker caches these so an instrument opened once online opens offline.
 */
export const SURVEY_DEFINITIONS_CACHE = "clinro-survey-definitions";

const DEFINITION_PATH = /^\/control\/(?:admin\/)?studies\/[^/]+\/instruments\/[^/]+\/[^/]+\/?$/;

export function isSurveyDefinitionUrl(url: URL) {
  return DEFINITION_PATH.test(url.pathname);
}
