import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { DisplayedRole } from "./user-list.ts";

/** The user-management roles as the interface names them. */
export const roleLabels: Record<DisplayedRole, MessageDescriptor> = {
  enroller: msg({ id: "role_enroller", message: "Enroller" }),
  researcher: msg({ id: "role_researcher", message: "Researcher" }),
  studyManager: msg({ id: "role_study_manager", message: "Study manager" }),
  administrator: msg({ id: "role_administrator", message: "Administrator" }),
};
