/**
 * GET /control/users: the administrator's user list (spec 01 sections 2 and 7).
 */
import * as z from "zod/mini";
import { userRole } from "./user.ts";

/** User-management roles that may list users; 'edit' is the legacy name of administrator. */
export const USER_ADMIN_ROLES = ["administrator", "edit"] as const;

export const userListItem = z.object({
  id: z.number().check(z.int()),
  /** The login email. */
  username: z.string(),
  nickname: z.string(),
  /** Stored as is: the interface shows the legacy 'edit' as administrator. */
  role: userRole,
  /** ISO timestamp, or null for a user who never signed in ('Never Logged In'). */
  last_login: z.nullable(z.string()),
  /**
   * Where the account stands (the list says it; the edit call leaves it out): active, invited
   * (its activation link still works, until invitation_expires_at), invitation_expired,
   * deactivated.
   */
  status: z.optional(z.enum(["active", "invited", "invitation_expired", "deactivated"])),
  invitation_expires_at: z.optional(z.nullable(z.string())),
  /**
   * The user's role in each study, as stored ('11', '12', '13', '16' or 'Impartial Witness'),
   * ordered by study name: the list names them in a coordinator's words. The list answers it;
   * the edit call leaves it out.
   */
  study_roles: z.optional(
    z.array(z.object({ study_id: z.number().check(z.int()), study_name: z.string(), role: z.string() })),
  ),
});
export type UserListItem = z.infer<typeof userListItem>;
export type UserStudyRole = NonNullable<UserListItem["study_roles"]>[number];

/** Every user, ordered by id. */
export const usersResponse = z.object({ users: z.array(userListItem) });
export type UsersResponse = z.infer<typeof usersResponse>;
