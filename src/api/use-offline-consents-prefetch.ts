/**
 * Keeps on the device, while there is a connection, what signing a consent offline needs for a
 * participant enrolled offline: the site's consents list and the blank definition of each
 * consent's current version (both persisted queries). A participant added without a connection
 * is enrolled by the server only later, so the participant's consent call cannot answer for them
 * until then; these copies let the consent be signed and queued behind the enrolment.
 *
 * Loaded after the page (the consent calls' module brings the survey definition's schemas), and
 * only what is missing is fetched: a published version never changes.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { isWitness } from "../../core/contracts/roles.ts";

/**
 * For who may add participants at the site (`mayEnrol`), in a study with the new consents: a
 * witness never starts a consent, and a study without them has no consents to sign.
 */
export function useOfflineConsentsPrefetch(
  permission: { role: string; consent_2: boolean } | undefined,
  studyId: number,
  siteId: number,
  mayEnrol: boolean,
) {
  const queryClient = useQueryClient();
  const wanted = mayEnrol && permission !== undefined && permission.consent_2 && !isWitness(permission.role);
  useEffect(() => {
    if (!wanted) return;
    let cancelled = false;
    void (async () => {
      const { siteConsentsQuery, blankConsentQuery } = await import("./consents-api.ts");
      const list = await queryClient
        .ensureQueryData(siteConsentsQuery(studyId, siteId))
        .catch(() => undefined);
      const study = list?.consents.find((entry) => entry.study_id === studyId);
      for (const consent of study?.consents ?? []) {
        if (cancelled) return;
        await queryClient
          .ensureQueryData(blankConsentQuery(consent.consent_id, consent.version))
          .catch(() => undefined);
      }
    })().catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [queryClient, studyId, siteId, wanted]);
}
