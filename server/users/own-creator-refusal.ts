/**
 * The server's side of isOwnCreator (core/contracts/user-edit.ts): the 403 every call that
 * changes another user answers when that user created the caller's account, so the edit call and
 * the staff-access calls refuse it with the same words.
 */
import { isOwnCreator } from "../../core/contracts/user-edit.ts";
import type { SignedInUser } from "../auth/authenticate.ts";
import { HttpError } from "../http/errors.ts";

export function ownCreatorRefusal() {
  return new HttpError(403, "You may not edit the user who created your account.", "users_edit_creator");
}

/** Throws the 403 when `targetId` is the user who created the caller's account. */
export function refuseActingOnOwnCreator(caller: Pick<SignedInUser, "createdBy">, targetId: number) {
  if (isOwnCreator({ created_by: caller.createdBy }, targetId)) throw ownCreatorRefusal();
}
