/**
 * The clinician roles of spec 01 and 02 section 6, as the server stores them per study, the
 * witness rule both sides apply, and the platform name the spec's calls carry: one home for
 * these names.
 */

/** The platform name of the spec's calls (platform, platform_type, an event's platform). */
export const PLATFORM = "clinro";

/** Clinician role codes, as study_permissions.role and an instrument's permissions hold them. */
export const ROLE_CODE = {
  clinicalStaff1: "11",
  clinicalStaff2: "12",
  clinicalStaff3: "13",
  clinicalCoordinator: "16",
} as const;
export type RoleCode = (typeof ROLE_CODE)[keyof typeof ROLE_CODE];

/** The clinician role that counts as witness: no Participants or Virtual visits tab; signs
 * consents through the witness endpoint. */
export const WITNESS_ROLE = "Impartial Witness";

/** A role in a study: one of the codes, or the witness role. */
export type StudyRole = RoleCode | typeof WITNESS_ROLE;

/** Whether a user's role in a study is the witness role (case and spaces aside). */
export function isWitness(role: string | undefined) {
  return role?.trim().toLowerCase() === WITNESS_ROLE.toLowerCase();
}
