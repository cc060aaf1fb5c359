/**
 * The signed-in user's profile and the administrators' user list.
 */
import { defineCall } from "../http/define-call.ts";
import { meResponse, patchMeRequest } from "../user.ts";
import { usersResponse } from "../users.ts";
import { INVALID, REFUSALS, SIGNED_OUT } from "./common-answers.ts";

export const getMeCall = defineCall({
  operationId: "getMe",
  tag: "Users",
  scope: "own",
  method: "GET",
  path: "/control/clinro/users/me",
  summary: "The signed-in user with their studies, sites and roles",
  answers: { 200: meResponse, ...SIGNED_OUT },
});

export const patchMeCall = defineCall({
  operationId: "patchMe",
  tag: "Users",
  scope: "own",
  method: "PATCH",
  path: "/control/clinro/users/me",
  summary: "Change one's name, nickname or phone",
  body: patchMeRequest,
  answers: { 200: meResponse, ...INVALID, ...SIGNED_OUT },
});

export const listUsersCall = defineCall({
  operationId: "listUsers",
  tag: "Users",
  scope: "admin",
  method: "GET",
  path: "/control/users",
  summary: "Every user (administrators only)",
  answers: { 200: usersResponse, ...REFUSALS },
});
