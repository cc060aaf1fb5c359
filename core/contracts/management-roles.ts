/**
 * What the user-management roles of spec 01 (a user's `role`, beside their clinician role in
 * each study) allow: one rule for the server and the navigation.
 *
 * - enroller: participants (add, edit, import at the sites they work in);
 * - researcher: instruments;
 * - studyManager: both;
 * - administrator (legacy 'edit'): all of that, the users, and the export of every study, whole:
 *   an administrator manages every study of the portal (sets it up, gives everyone's access).
 *
 * Anyone else exports only with the export right given in the study, and only the sites they
 * hold there (core/contracts/study-rights.ts): no management role implies it.
 *
 * A Clinical Coordinator (16) in a study also enrols participants at their sites there: the spec
 * makes coordinators the ones who run a site (checked with the study role, not here).
 */
export type ManagementCapability = "participants" | "instruments" | "exports" | "users";

const CAPABILITIES: Record<string, readonly ManagementCapability[]> = {
  enroller: ["participants"],
  researcher: ["instruments"],
  studyManager: ["participants", "instruments"],
  administrator: ["participants", "instruments", "exports", "users"],
  edit: ["participants", "instruments", "exports", "users"],
};

export function managementRoleAllows(role: string | undefined, capability: ManagementCapability) {
  return role !== undefined && (CAPABILITIES[role] ?? []).includes(capability);
}
