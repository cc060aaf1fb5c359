/**
 * What the user-management roles of spec 01 (a user's `role`, beside their clinician role in
 * each study) allow: one rule for the server and the navigation.
 *
 * - enroller: participants (add, edit, import at the sites they work in);
 * - researcher: instruments and exports;
 * - studyManager: both;
 * - administrator (legacy 'edit'): all of that, and the users.
 *
 * A Clinical Coordinator (16) in a study also enrols participants at their sites there: the spec
 * makes coordinators the ones who run a site (checked with the study role, not here).
 */
export type ManagementCapability = "participants" | "instruments" | "exports" | "users";

const CAPABILITIES: Record<string, readonly ManagementCapability[]> = {
  enroller: ["participants"],
  researcher: ["instruments", "exports"],
  studyManager: ["participants", "instruments", "exports"],
  administrator: ["participants", "instruments", "exports", "users"],
  edit: ["participants", "instruments", "exports", "users"],
};

export function managementRoleAllows(role: string | undefined, capability: ManagementCapability) {
  return role !== undefined && (CAPABILITIES[role] ?? []).includes(capability);
}
