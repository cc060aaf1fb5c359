/**
 * The study part of the navigation bar (spec 01 section 2): which tabs and back links show for
 * the current path, study and role. Plain data: the component turns keys into texts.
 */
import { isWitness } from "../../core/contracts/roles.ts";

export type StudyPath = { studyId: number; siteId: number; base: string; rest: string };

/** The study and site of a /studies/{studyId}/sites/{siteId}/... path, or null. */
export function parseStudyPath(pathname: string): StudyPath | null {
  const match = /^\/studies\/(\d+)\/sites\/(\d+)(\/.*)?$/.exec(pathname);
  if (!match) return null;
  const studyId = Number(match[1]);
  const siteId = Number(match[2]);
  return { studyId, siteId, base: `/studies/${studyId}/sites/${siteId}`, rest: match[3] ?? "" };
}

export type StudyTabKey = "participants" | "consents" | "visits";
export type StudyTab = { key: StudyTabKey; to: string; current: boolean; dot: boolean };

export type TabFacts = {
  /** The user's clinician role in the study. */
  role: string | undefined;
  newConsentEnabled: boolean;
  /** The study config's virtual_visits. */
  virtualVisits: boolean;
  /** Consents of the study still missing; undefined while unknown (no dot). */
  missingConsents: number | undefined;
};

/**
 * Participants (hidden for a witness); Consents (only with newConsentEnabled; a dot while
 * consents are missing); Virtual visits (hidden for a witness, or without virtual_visits).
 */
export function studyTabs(path: StudyPath, facts: TabFacts): StudyTab[] {
  const witness = isWitness(facts.role);
  const tabs: StudyTab[] = [];
  const tab = (key: StudyTabKey, segment: string, currentSegments: string[], dot = false) =>
    tabs.push({
      key,
      to: `${path.base}/${segment}`,
      current: currentSegments.some(
        (current) => path.rest === `/${current}` || path.rest.startsWith(`/${current}/`),
      ),
      dot,
    });
  if (!witness) tab("participants", "search", ["search", "participants", "pending"]);
  if (facts.newConsentEnabled) tab("consents", "consents", ["consents"], (facts.missingConsents ?? 0) > 0);
  if (!witness && facts.virtualVisits) tab("visits", "visits", ["visits"]);
  return tabs;
}

export type BackLinkKey = "studies" | "search" | "visits" | "consents";
export type BackLink = { key: BackLinkKey; to: string };

/**
 * All studies from anywhere in a study; search participant from a participant and its
 * instruments; upcoming visits from a visit room; consents search all from one consent.
 */
export function backLinks(path: StudyPath): BackLink[] {
  const links: BackLink[] = [{ key: "studies", to: "/studies" }];
  if (path.rest.startsWith("/participants/") || path.rest === "/pending") {
    links.push({ key: "search", to: `${path.base}/search` });
  }
  if (path.rest.startsWith("/visits/")) links.push({ key: "visits", to: `${path.base}/visits` });
  if (path.rest.startsWith("/consents/")) links.push({ key: "consents", to: `${path.base}/consents` });
  return links;
}
