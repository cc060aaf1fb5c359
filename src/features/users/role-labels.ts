import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { StaffStatus, StaffStudyRole } from "../../../core/contracts/staff.ts";
import type { DisplayedRole } from "./user-list.ts";

/** The user-management roles as the interface names them. */
export const roleLabels: Record<DisplayedRole, MessageDescriptor> = {
  enroller: msg({ id: "role_enroller", message: "Enroller" }),
  researcher: msg({ id: "role_researcher", message: "Researcher" }),
  studyManager: msg({ id: "role_study_manager", message: "Study manager" }),
  administrator: msg({ id: "role_administrator", message: "Administrator" }),
};

/** The roles in a study as a coordinator names them (the codes stay in the data). */
export const studyRoleLabels: Record<StaffStudyRole, MessageDescriptor> = {
  "11": msg({ id: "study_role_11", message: "Clinical Staff Level 1" }),
  "12": msg({ id: "study_role_12", message: "Clinical Staff Level 2" }),
  "13": msg({ id: "study_role_13", message: "Clinical Staff Level 3" }),
  "16": msg({ id: "study_role_16", message: "Clinical Coordinator" }),
  "Impartial Witness": msg({ id: "study_role_witness", message: "Impartial Witness" }),
};

/** Where an account stands, as the user list and the access page say it. */
export const staffStatusLabels: Record<StaffStatus, MessageDescriptor> = {
  active: msg({ id: "staff_status_active", message: "Active" }),
  invited: msg({ id: "staff_status_invited", message: "Invitation sent" }),
  invitation_expired: msg({ id: "staff_status_invitation_expired", message: "Invitation expired" }),
  deactivated: msg({ id: "staff_status_deactivated", message: "Deactivated" }),
};
