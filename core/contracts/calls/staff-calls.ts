/**
 * Staff management by administrators (core/contracts/staff.ts): invitations, one or a CSV of
 * many, resending them, a user's studies, sites and roles, deactivation. Every call is for
 * administrators only (managementRoleAllows(role, "users")); anyone else gets a 403, and so does
 * a change to the user who created the caller's account (spec 01 section 4).
 */
import { defineCall } from "../http/define-call.ts";
import { errorBody } from "../errors.ts";
import {
  assignableStudies,
  inviteStaffRequest,
  staffAccessRequest,
  staffImportRefusal,
  staffImportRequest,
  staffImportResponse,
  staffMember,
  staffUserParams,
} from "../staff.ts";
import { REFUSALS } from "./common-answers.ts";

export const listAssignableStudiesCall = defineCall({
  operationId: "listAssignableStudies",
  tag: "Users",
  scope: "admin",
  method: "GET",
  path: "/control/users/study-sites",
  summary: "Every study and its sites in use, to give users access to (administrators only)",
  answers: { 200: assignableStudies, ...REFUSALS },
});

export const inviteStaffCall = defineCall({
  operationId: "inviteStaff",
  tag: "Users",
  scope: "admin",
  method: "POST",
  path: "/control/users/invitations",
  summary:
    "Invite a user: makes the account with its role and sites in each study and mails the activation link, which works for 7 days (administrators only)",
  body: inviteStaffRequest,
  answers: { 201: staffMember, ...REFUSALS },
});

export const importStaffCall = defineCall({
  operationId: "importStaff",
  tag: "Users",
  scope: "admin",
  method: "POST",
  path: "/control/users/invitations/import",
  summary:
    "Invite users from a CSV (docs/staff-import.md): a dry run says whom it would invite; otherwise everyone is invited, or nobody when any row is bad (a 400 naming every bad row)",
  body: staffImportRequest,
  answers: { 200: staffImportResponse, ...REFUSALS, 400: staffImportRefusal },
});

export const getStaffAccessCall = defineCall({
  operationId: "getStaffAccess",
  tag: "Users",
  scope: "admin",
  method: "GET",
  path: "/control/users/{userId}/access",
  summary: "A user's status, management role and role and sites in each study (administrators only)",
  params: staffUserParams,
  answers: { 200: staffMember, ...REFUSALS, 404: errorBody },
});

export const setStaffAccessCall = defineCall({
  operationId: "setStaffAccess",
  tag: "Users",
  scope: "admin",
  method: "PUT",
  path: "/control/users/{userId}/access",
  summary:
    "Set a user's management role and every study of theirs with its role and sites; a study left out is taken away (administrators only, never their own management role, never the user who created their account)",
  params: staffUserParams,
  body: staffAccessRequest,
  answers: { 200: staffMember, ...REFUSALS, 404: errorBody },
});

export const resendInvitationCall = defineCall({
  operationId: "resendInvitation",
  tag: "Users",
  scope: "admin",
  method: "POST",
  path: "/control/users/{userId}/invitation",
  summary:
    "Mail a user who has not activated their account a new activation link; the earlier link stops working (administrators only)",
  params: staffUserParams,
  answers: { 200: staffMember, ...REFUSALS, 404: errorBody, 409: errorBody },
});

export const deactivateUserCall = defineCall({
  operationId: "deactivateUser",
  tag: "Users",
  scope: "admin",
  method: "POST",
  path: "/control/users/{userId}/deactivate",
  summary:
    "Deactivate a user: their tokens stop working at the next request and they cannot sign in; their signatures and audit rows stay (administrators only, never themselves or the user who created their account)",
  params: staffUserParams,
  answers: { 200: staffMember, ...REFUSALS, 404: errorBody },
});

export const reactivateUserCall = defineCall({
  operationId: "reactivateUser",
  tag: "Users",
  scope: "admin",
  method: "POST",
  path: "/control/users/{userId}/reactivate",
  summary:
    "Reactivate a deactivated user: they sign in with their password again (one who never activated needs the invitation resent) (administrators only)",
  params: staffUserParams,
  answers: { 200: staffMember, ...REFUSALS, 404: errorBody },
});
