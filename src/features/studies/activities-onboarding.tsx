/**
 * The activities onboarding card (spec 02 section 9) on the studies page, where a clinician's
 * work starts: shown until the user dismisses it; the state is kept on the server with the user.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useDismissOnboarding, useOnboarding } from "../../api/announcements-api.ts";
import { OnboardingCard } from "../../widgets/onboarding-card/onboarding-card.tsx";

export function ActivitiesOnboarding() {
  const { t } = useLingui();
  const onboarding = useOnboarding();
  const dismiss = useDismissOnboarding();
  if (!onboarding.known || onboarding.state.activities) return null;
  return (
    <OnboardingCard
      kind="activities"
      title={t({ id: "studies_onboarding_title", message: "Your activities start here" })}
      onDismiss={() => dismiss.mutate("activities")}
    >
      <p>
        <Trans id="studies_onboarding_body">
          Choose a study and site, find a participant, and complete the activities on their to-do list one
          question at a time. What you send waits safely on this device when the network drops.
        </Trans>
      </p>
    </OnboardingCard>
  );
}
