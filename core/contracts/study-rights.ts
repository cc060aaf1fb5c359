/**
 * The rights a user's permission in one study carries (its study scope, spec 01's "Study
 * permission entry": study_permissions.scope), beside their clinician role there.
 *
 * - ca and cp: the clinician codes every staff member gets (the study list offers a study whose
 *   scope holds either: spec 01, "Study list");
 * - ex: may export the study's collected data, of the sites they hold
 *   (GET /control/studies/{studyId}/export). Given explicitly, study by study, by an
 *   administrator (the staff calls' may_export); no clinician role or management role implies it.
 *
 * Plain data: the app and the server both import it.
 */
export const STUDY_RIGHT = {
  administer: "ca",
  consent: "cp",
  export: "ex",
} as const;

/** What every staff member's permission in a study holds. */
export const CLINICIAN_STUDY_SCOPE: readonly string[] = [STUDY_RIGHT.administer, STUDY_RIGHT.consent];

/** The study scope of a staff member, given the export right or not. */
export function studyScopeOf({ mayExport }: { mayExport: boolean }): string[] {
  return mayExport ? [...CLINICIAN_STUDY_SCOPE, STUDY_RIGHT.export] : [...CLINICIAN_STUDY_SCOPE];
}

/** Whether a study scope holds the export right. */
export function scopeMayExport(scope: readonly string[]) {
  return scope.includes(STUDY_RIGHT.export);
}
