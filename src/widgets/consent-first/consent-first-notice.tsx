import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import type { ParticipantConsent } from "../../../core/contracts/consent-gate.ts";
import { LockIcon } from "../access-denied/lock-icon.tsx";
import "./consent-first-notice.css";

type Props = {
  studyId: number;
  siteId: number;
  participantId: number;
  /** What holds the instruments locked (src/outbox-ui/consent-lock.ts); the first one is offered. */
  consents: readonly ParticipantConsent[];
  /** The heading's level: 2 under the participant's name, 1 where it is the page. */
  headingLevel: 1 | 2;
};

/**
 * Consent first (core/contracts/consent-gate.ts): why this participant's instruments are locked
 * and the way to the consent that unlocks them.
 */
export function ConsentFirstNotice({ studyId, siteId, participantId, consents, headingLevel }: Props) {
  const { t } = useLingui();
  const first = consents[0];
  if (!first) return null;
  const Heading = headingLevel === 1 ? "h1" : "h2";
  const title = first.title;
  const others = consents
    .slice(1)
    .map((consent) => consent.title)
    .join(", ");
  const reason =
    first.status === "declined"
      ? t({
          id: "consent_first_declined",
          message: `The participant declined ${title}. This study takes no rating without it.`,
        })
      : t({
          id: "consent_first_pending",
          message: `${title} is not complete yet. This study takes no rating until it is.`,
        });
  return (
    <section className="consent-first-notice" aria-labelledby={`consent-first-${participantId}`}>
      <Heading id={`consent-first-${participantId}`} className="consent-first-notice__heading" tabIndex={-1}>
        <LockIcon />
        <Trans id="consent_first_heading">Consent needed before any rating</Trans>
      </Heading>
      <p>{reason}</p>
      {others ? <p>{t({ id: "consent_first_also", message: `Also needed: ${others}.` })}</p> : null}
      {first.status === "declined" ? null : (
        <Link
          className="button button--primary"
          to="/studies/$studyId/sites/$siteId/consents/$consentId/participants/$participantId/version/$versionId"
          params={{ studyId, siteId, consentId: first.consent_id, participantId, versionId: first.version }}
        >
          {t({ id: "consent_first_open", message: `Open ${title}` })}
        </Link>
      )}
    </section>
  );
}
