/**
 * The instrument route's component, loaded on demand (the survey engine and its question types
 * stay out of the app's first download).
 */
import { useLocation, useParams } from "@tanstack/react-router";
import { InstrumentPage } from "./instrument-page.tsx";

/** ?instance_id= names the delivery being completed; anything else is not one. */
function instanceIdOf(searchStr: string) {
  const raw = new URLSearchParams(searchStr).get("instance_id");
  const value = Number(raw);
  return raw && /^\d+$/.test(raw) && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

export function InstrumentRoute() {
  const params = useParams({
    from: "/signed-in/studies/$studyId/sites/$siteId/participants/$participantId/instruments/$instrumentId/$instrument",
  });
  const { searchStr } = useLocation();
  return (
    <InstrumentPage
      // Another instrument or delivery is another page: fresh state, fresh events.
      key={`${params.participantId}/${params.instrumentId}/${searchStr}`}
      {...params}
      searchStr={searchStr}
      instanceId={instanceIdOf(searchStr)}
    />
  );
}
