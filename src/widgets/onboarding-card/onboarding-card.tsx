/**
 * The onboarding card (spec 02 section 2; its kinds, activities and announcements, section 9):
 * a short introduction with the mascot, shown to a user until they dismiss it. A region named by
 * its title, so a screen reader lists it among the page's landmarks; the caller keeps the
 * dismissed state (on the server, with the user) and stops rendering the card on onDismiss.
 */
import { Trans } from "@lingui/react/macro";
import { useId, type ReactNode } from "react";
import { Mascot } from "../mascot/mascot.tsx";
import "./onboarding-card.css";

export type OnboardingKind = "activities" | "announcements";

export type OnboardingCardProps = {
  kind: OnboardingKind;
  /** The card's heading; it names the region. */
  title: string;
  children: ReactNode;
  onDismiss: () => void;
};

const MASCOT_SIZE = 88;

function KindLabel({ kind }: { kind: OnboardingKind }) {
  return kind === "activities" ? (
    <Trans id="widget_onboarding_kind_activities">Getting started: activities</Trans>
  ) : (
    <Trans id="widget_onboarding_kind_announcements">Getting started: announcements</Trans>
  );
}

export function OnboardingCard({ kind, title, children, onDismiss }: OnboardingCardProps) {
  const titleId = useId();
  return (
    <section
      className={`onboarding-card onboarding-card--${kind}`}
      aria-labelledby={titleId}
      data-kind={kind}
    >
      <Mascot size={MASCOT_SIZE} className="onboarding-card__mascot" />
      <div className="onboarding-card__body">
        <p className="onboarding-card__kind">
          <KindLabel kind={kind} />
        </p>
        <h2 id={titleId} className="onboarding-card__title">
          {title}
        </h2>
        <div className="onboarding-card__content">{children}</div>
        <div className="onboarding-card__actions">
          <button type="button" className="button button--primary" onClick={onDismiss}>
            <Trans id="widget_onboarding_dismiss">Got it</Trans>
          </button>
        </div>
      </div>
    </section>
  );
}
