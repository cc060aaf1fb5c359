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

/** The clinician roles of spec 02 section 6 (Clinical Staff Level 1, 2, 3 and Clinical
 * Coordinator): they administer instruments and sign consents for the site. */
export const CLINICIAN_ROLE_CODES: readonly string[] = Object.values(ROLE_CODE);

/** Whether a study role (a bare code, spaces aside) is one of the clinician roles. */
export function isClinicianRole(role: string | undefined) {
  const code = role?.trim();
  return code !== undefined && CLINICIAN_ROLE_CODES.includes(code);
}

/** Who signs a consent signature question (spec 02, consent signature). */
export const SIGNER_ROLES = ["participant", "caregiver", "clinro", "witness"] as const;
export type SignerRole = (typeof SIGNER_ROLES)[number];

/** The signers who are portal users: they re-enter their password at the signature (11.200),
 * and a consent's questions of the other staff side are hidden from them. */
export const USER_SIGNER_ROLES = ["clinro", "witness"] as const satisfies readonly SignerRole[];
export type UserSignerRole = (typeof USER_SIGNER_ROLES)[number];

export function isUserSignerRole(role: string | undefined): role is UserSignerRole {
  return (USER_SIGNER_ROLES as readonly (string | undefined)[]).includes(role);
}
