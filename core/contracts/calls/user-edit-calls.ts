/**
 * Editing another user (spec 01 section 4). Apart from user-calls.ts, which the first download
 * holds: only the users pages, loaded on demand, send it.
 */
import { defineCall } from "../http/define-call.ts";
import { errorBody } from "../errors.ts";
import { editUserParams, editUserRequest } from "../user-edit.ts";
import { userListItem } from "../users.ts";
import { REFUSALS } from "./common-answers.ts";

export const editUserCall = defineCall({
  operationId: "editUser",
  tag: "Users",
  scope: "admin",
  method: "PATCH",
  path: "/control/users/{userId}",
  summary:
    "Change another user's nickname or role (needs the user scope 'wu', and the target is not the editor's creator); anyone may change their own nickname",
  params: editUserParams,
  body: editUserRequest,
  answers: { 200: userListItem, ...REFUSALS, 404: errorBody },
});
