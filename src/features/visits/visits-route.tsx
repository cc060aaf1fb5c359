import { getRouteApi } from "@tanstack/react-router";
import { VisitsPage } from "./visits-page.tsx";

const visitsRoute = getRouteApi("/signed-in/studies/$studyId/sites/$siteId/visits");
const visitRoomRoute = getRouteApi("/signed-in/studies/$studyId/sites/$siteId/visits/$roomToken");

export function VisitsRoute() {
  const { studyId, siteId } = visitsRoute.useParams();
  return <VisitsPage studyId={studyId} siteId={siteId} />;
}

/** The room's URL: the visits page, with that room opened in the global overlay. */
export function VisitRoomRoute() {
  const { studyId, siteId, roomToken } = visitRoomRoute.useParams();
  return <VisitsPage studyId={studyId} siteId={siteId} roomName={roomToken} />;
}
