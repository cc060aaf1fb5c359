import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Link, useRouterState } from "@tanstack/react-router";
import { myConsentsQuery } from "../api/my-consents-api.ts";
import { studyQuery } from "../api/studies-api.ts";
import { useStoredUser } from "../auth/use-stored-user.ts";
import { missingConsentsOf } from "../../core/contracts/consents.ts";
import { readSelection } from "../features/studies/study-selection.ts";
import {
  backLinks,
  parseStudyPath,
  studyTabs,
  type BackLinkKey,
  type StudyPath,
  type StudyTabKey,
} from "./study-nav.ts";

/**
 * The study row of the navigation bar: site and study names of the current selection, the back
 * links and the tabs (spec 01 section 2). Shown only on pages inside a study and site.
 */
export function StudyNavBar() {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const path = parseStudyPath(pathname);
  if (!path) return null;
  return <StudyNavRow path={path} />;
}

function StudyNavRow({ path }: { path: StudyPath }) {
  const { t } = useLingui();
  const user = useStoredUser();
  const permission = user?.permissions?.[String(path.studyId)];
  // Only a study the user has permission in: the study call answers 403 otherwise.
  const study = useQuery({ ...studyQuery(path.studyId), enabled: user !== null && permission !== undefined });
  const selection = readSelection();
  const selected = selection?.studyId === path.studyId && selection.siteId === path.siteId ? selection : null;
  const siteName =
    selected?.siteName ??
    permission?.sites.find((site) => site.site_id === path.siteId)?.site_label ??
    study.data?.sites.find((site) => site.site_id === path.siteId)?.site_label;
  const studyName = selected?.studyName ?? permission?.study_name ?? study.data?.name;
  const newConsentEnabled =
    study.data?.newConsentEnabled ?? selected?.newConsentEnabled ?? permission?.consent_2 ?? false;
  // The study's consents over the user's sites of it; only asked for when the tab shows.
  const consents = useQuery({
    ...myConsentsQuery(path.studyId),
    enabled: user !== null && permission !== undefined && newConsentEnabled,
    select: (response) => missingConsentsOf(response, path.studyId),
  });
  const tabs = studyTabs(path, {
    role: permission?.role,
    newConsentEnabled,
    virtualVisits: study.data?.config.virtual_visits === true,
    // Undefined while loading or after a failure: no dot.
    missingConsents: consents.isError ? undefined : consents.data,
  });

  const backText: Record<BackLinkKey, string> = {
    studies: t({ id: "nav_back_all_studies", message: "All studies" }),
    search: t({ id: "nav_back_search_participant", message: "Search participant" }),
    visits: t({ id: "nav_back_upcoming_visits", message: "Upcoming visits" }),
    consents: t({ id: "nav_back_consents_search_all", message: "Consents search all" }),
  };
  const tabText: Record<StudyTabKey, string> = {
    participants: t({ id: "nav_tab_participants", message: "Participants" }),
    consents: t({ id: "nav_tab_consents", message: "Consents" }),
    visits: t({ id: "nav_tab_virtual_visits", message: "Virtual visits" }),
  };

  return (
    <nav className="study-nav" aria-label={t({ id: "nav_study_label", message: "Study" })}>
      <div className="study-nav__inner">
        <ul className="study-nav__back">
          {backLinks(path).map((link) => (
            <li key={link.key}>
              <Link to={link.to} className="study-nav__back-link">
                <span aria-hidden="true">‹ </span>
                {backText[link.key]}
              </Link>
            </li>
          ))}
        </ul>
        <p className="study-nav__context">
          {siteName ? <span className="study-nav__site">{siteName}</span> : null}
          {studyName ? <span className="study-nav__study">{studyName}</span> : null}
          {!siteName && !studyName ? <Trans id="nav_study_loading">Loading study…</Trans> : null}
        </p>
        {tabs.length > 0 ? (
          <ul className="study-nav__tabs">
            {tabs.map((tab) => (
              <li key={tab.key}>
                <Link to={tab.to} className="study-nav__tab" aria-current={tab.current ? "page" : undefined}>
                  {tabText[tab.key]}
                  {tab.dot ? (
                    <span className="study-nav__dot">
                      <span className="visually-hidden">
                        {" "}
                        <Trans id="nav_tab_consents_missing">(consents missing)</Trans>
                      </span>
                    </span>
                  ) : null}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </nav>
  );
}
