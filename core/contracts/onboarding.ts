/**
 * The onboarding cards (spec 02 section 9: activities and announcements), dismissed for good by
 * the user and kept with them on the server; the me call reports them. A module of its own: the
 * me call's schema is in every first download, the announcements' schemas are not.
 */
import * as z from "zod/mini";

export const ONBOARDING_KINDS = ["activities", "announcements"] as const;
export type OnboardingKind = (typeof ONBOARDING_KINDS)[number];

/** Per kind: true once the user has dismissed that card. */
export const onboardingState = z.object({ announcements: z.boolean(), activities: z.boolean() });
export type OnboardingState = z.infer<typeof onboardingState>;

export const onboardingParams = z.object({ kind: z.enum(ONBOARDING_KINDS) });
export const onboardingResponse = z.object({ onboarding: onboardingState });
