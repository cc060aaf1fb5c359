/**
 * Editing users (spec 01 section 4): who may edit whom, and PATCH /control/users/{userId}.
 * Kept apart from users.ts, which the first download holds (the router asks mayListUsers):
 * only the users pages, loaded on demand, need this.
 */
import * as z from "zod/mini";
import { rowId } from "./input-bounds.ts";

/** The user scope code that lets a user edit other users (spec 01 section 4). */
export const EDIT_USERS_SCOPE = "wu";

/** The roles an editor may give; the legacy 'edit' is read, never written. */
export const assignableRole = z.enum(["enroller", "researcher", "studyManager", "administrator"]);
export type AssignableRole = z.infer<typeof assignableRole>;

export type UserEditor = {
  id: number;
  /** The editor's user scope codes. */
  scope: readonly string[];
  /** Who created the editor's account; null for an account nobody created (seeded, imported). */
  created_by: number | null;
};

export type EditRefusal = "no_scope" | "creator";

/**
 * Spec 01 section 4: nobody changes the account of the user who created theirs, whichever page
 * or call they use (the edit call, the staff-access calls). An account nobody created has no
 * such user.
 */
export function isOwnCreator(user: Pick<UserEditor, "created_by">, targetId: number): boolean {
  return user.created_by !== null && targetId === user.created_by;
}

/**
 * Spec 01 section 4, "Editing users": anyone may edit their own profile; editing another user
 * needs the user scope 'wu' and a target who is not the editor's own creator. Answers null when
 * allowed, else why not.
 */
export function editRefusal(editor: UserEditor, targetId: number): EditRefusal | null {
  if (targetId === editor.id) return null;
  if (!editor.scope.includes(EDIT_USERS_SCOPE)) return "no_scope";
  if (isOwnCreator(editor, targetId)) return "creator";
  return null;
}

export function mayEditUser(editor: UserEditor, targetId: number): boolean {
  return editRefusal(editor, targetId) === null;
}

/** PATCH /control/users/{userId}: what an editor may change of another user. */
export const editUserParams = z.object({
  userId: rowId("userId"),
});

export const editUserRequest = z
  .strictObject({
    nickname: z.optional(
      z.string().check(z.trim(), z.minLength(1, "nickname must not be empty"), z.maxLength(200)),
    ),
    role: z.optional(assignableRole),
  })
  .check(
    z.refine((body) => body.nickname !== undefined || body.role !== undefined, {
      message: "give nickname or role",
    }),
  );
export type EditUserRequest = z.infer<typeof editUserRequest>;
