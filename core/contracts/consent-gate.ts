/**
 * Consent first: in a study that asks consent first (new_consent_enabled), no instrument is
 * rated for a participant, and no instrument event is taken, until each consent that study
 * requires of them is complete. A consent marked optional in its definition (a genetic
 * sub-study, say) holds nothing back, whatever its status; a declined required consent holds
 * the ratings back for good, until a new version is signed.
 *
 * One rule for the server (which refuses with a 409 naming the consent) and the app (which
 * shows the instrument locked, from the participant's cached status when offline, and lifts
 * the lock for a consent completed on this device that is still waiting to be sent).
 */
import * as z from "zod/mini";
import { consentParticipantStatus, type ConsentParticipantStatus } from "./consents.ts";

/** The code of the 409 that refuses a rating taken before consent. */
export const CONSENT_REQUIRED_CODE = "consent_required";

/** One consent of the participant's, as the gate reads it. */
export const participantConsent = z.object({
  consent_id: z.number().check(z.int()),
  title: z.string(),
  version: z.number().check(z.int()),
  status: consentParticipantStatus,
});
export type ParticipantConsent = z.infer<typeof participantConsent>;

export type GateFacts = {
  /** The study asks consent first (new_consent_enabled). */
  asksConsentFirst: boolean;
  /** The participant's consents of the study, retired ones left out, each with its optionality. */
  consents: readonly (ParticipantConsent & { optional: boolean })[];
};

/** The consents still holding the participant's ratings back, oldest consent first. */
export function consentsHoldingBack(facts: GateFacts): ParticipantConsent[] {
  if (!facts.asksConsentFirst) return [];
  return facts.consents
    .filter((consent) => !consent.optional && consent.status !== "complete")
    .map(({ optional: _optional, ...consent }) => consent)
    .sort((a, b) => a.consent_id - b.consent_id);
}

/**
 * What the device still waits for: the consents holding back, less those completed on this
 * device whose signing is queued (they reach the server before any rating queued after them,
 * the outbox sends one participant's writes in order).
 */
export function consentsStillHoldingBack(
  holdingBack: readonly ParticipantConsent[],
  completedOnDevice: ReadonlySet<number>,
): ParticipantConsent[] {
  return holdingBack.filter((consent) => !completedOnDevice.has(consent.consent_id));
}

/** The server's refusal, in English for the API (the app says it in the user's language). */
export function consentRequiredMessage(consent: ParticipantConsent) {
  const state = consent.status === "declined" ? "was declined" : `is ${consent.status.replaceAll("_", " ")}`;
  return (
    `The participant's consent "${consent.title}" (consent ${consent.consent_id}, version ` +
    `${consent.version}) ${state}: this study takes no rating before it is complete.`
  );
}

export type { ConsentParticipantStatus };
