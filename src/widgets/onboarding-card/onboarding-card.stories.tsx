import type { Story, StoryDefault } from "@ladle/react";
import { useState } from "react";
import { OnboardingCard, type OnboardingKind } from "./onboarding-card.tsx";

export default { title: "Widgets / Onboarding card" } satisfies StoryDefault;

function Demo({ kind, title, text }: { kind: OnboardingKind; title: string; text: string }) {
  const [dismissed, setDismissed] = useState(false);
  if (dismissed) {
    return (
      <button type="button" className="button button--secondary" onClick={() => setDismissed(false)}>
        Show the card again
      </button>
    );
  }
  return (
    <OnboardingCard kind={kind} title={title} onDismiss={() => setDismissed(true)}>
      <p>{text}</p>
    </OnboardingCard>
  );
}

export const Activities: Story = () => (
  <Demo
    kind="activities"
    title="Your activities"
    text="Instruments and consents waiting for you appear here, the most urgent first. Open one to start, or come back to a draft later."
  />
);

export const Announcements: Story = () => (
  <Demo
    kind="announcements"
    title="Your inbox"
    text="Announcements from the study team arrive here. A dot marks the ones you have not read yet."
  />
);
