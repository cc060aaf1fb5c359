/**
 * The two consent list routes' components, loaded on demand: they read the route's params and
 * key the page by its location, so the search text starts over on every location change
 * (spec 02 section 4, "Search term resets on location change").
 */
import { useLocation, useParams, useSearch } from "@tanstack/react-router";
import { ConsentListPage } from "./consent-list-page.tsx";
import { ConsentParticipantsPage } from "./consent-participants-page.tsx";
import "./consents.css";

export function ConsentListRoute() {
  const { studyId, siteId } = useParams({ from: "/signed-in/studies/$studyId/sites/$siteId/consents" });
  const { href } = useLocation();
  return <ConsentListPage key={href} studyId={studyId} siteId={siteId} />;
}

export function ConsentParticipantsRoute() {
  const params = useParams({ from: "/signed-in/studies/$studyId/sites/$siteId/consents/$consentId" });
  const { signed } = useSearch({ from: "/signed-in/studies/$studyId/sites/$siteId/consents/$consentId" });
  const { href } = useLocation();
  return <ConsentParticipantsPage key={href} {...params} signed={signed} />;
}
