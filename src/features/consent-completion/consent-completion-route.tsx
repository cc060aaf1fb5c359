/**
 * The consent completion route's component, loaded on demand (the runner, the signature pad and
 * the photo editor stay out of the app's first download).
 */
import { useParams } from "@tanstack/react-router";
import { ConsentCompletionPage } from "./consent-completion-page.tsx";
import "./consent-completion.css";

export function ConsentCompletionRoute() {
  const params = useParams({
    from: "/signed-in/studies/$studyId/sites/$siteId/consents/$consentId/participants/$participantId/version/$versionId",
  });
  // Another participant or version is another page: fresh state, fresh draft.
  return <ConsentCompletionPage key={`${params.participantId}/${params.versionId}`} {...params} />;
}
