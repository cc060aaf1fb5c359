import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react";
import type { AssignableRole } from "../../../core/contracts/user-edit.ts";

/**
 * What each management role allows (core/contracts/management-roles.ts), in words. Exporting a
 * study's data is a right given study by study (the access fields), except to administrators.
 */
const hints: Record<AssignableRole, MessageDescriptor> = {
  enroller: msg({ id: "management_role_hint_enroller", message: "Adds and edits participants." }),
  researcher: msg({ id: "management_role_hint_researcher", message: "Instruments." }),
  studyManager: msg({
    id: "management_role_hint_study_manager",
    message: "Participants and instruments.",
  }),
  administrator: msg({
    id: "management_role_hint_administrator",
    message: "Participants, instruments, the users, and every study's export.",
  }),
};

export function ManagementRoleHint({ id, role }: { id: string; role: AssignableRole }) {
  const { i18n } = useLingui();
  return (
    <p id={id} className="field-hint">
      {i18n._(hints[role])}
    </p>
  );
}
