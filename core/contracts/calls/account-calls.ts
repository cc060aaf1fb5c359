/**
 * The sign-in, password and emailed-link calls (spec 01 sections 5 to 8).
 */
import * as z from "zod/mini";
import { changePasswordRequest, changePasswordResponse, loginRequest, loginResponse } from "../auth.ts";
import { errorBody } from "../errors.ts";
import { defineCall } from "../http/define-call.ts";
import {
  accountMailAccepted,
  forgotPasswordRequest,
  forgotUsernameRequest,
  setupPasswordRequest,
  setupPasswordResponse,
  verifyTokenRequest,
  verifyTokenResponse,
} from "../password-setup.ts";
import { INVALID, SIGNED_OUT } from "./common-answers.ts";

export const loginCall = defineCall({
  operationId: "login",
  tag: "Account",
  scope: "public",
  method: "POST",
  path: "/control/clinro/login",
  summary: "Sign in with username and password; answers a token",
  public: true,
  body: loginRequest,
  // 403: the password is right but the account is deactivated.
  answers: { 200: loginResponse, ...INVALID, 403: errorBody, 429: errorBody },
});

export const logoutCall = defineCall({
  operationId: "logout",
  tag: "Account",
  scope: "own",
  method: "POST",
  path: "/control/clinro/logout",
  summary: "Sign out: the token stops working",
  answers: { 204: { empty: true, description: "Signed out" }, ...SIGNED_OUT },
});

export const changePasswordCall = defineCall({
  operationId: "changePassword",
  tag: "Account",
  scope: "own",
  method: "POST",
  path: "/control/change_password",
  summary: "Change one's own password; answers a new token",
  body: changePasswordRequest,
  answers: { 200: changePasswordResponse, ...INVALID, ...SIGNED_OUT },
});

export const forgotPasswordCall = defineCall({
  operationId: "forgotPassword",
  tag: "Account",
  scope: "public",
  method: "POST",
  path: "/control/users/forgot_password",
  summary: "Mail a password reset link (the same answer whether the user exists or not)",
  public: true,
  body: forgotPasswordRequest,
  answers: { 200: accountMailAccepted, ...INVALID },
});

export const forgotUsernameCall = defineCall({
  operationId: "forgotUsername",
  tag: "Account",
  scope: "public",
  method: "POST",
  path: "/control/participants/me/forgot_username",
  summary: "Mail a username reminder (the same answer whether the address is known or not)",
  public: true,
  body: forgotUsernameRequest,
  answers: { 200: accountMailAccepted, ...INVALID },
});

export const verifyTokenCall = defineCall({
  operationId: "verifyToken",
  tag: "Account",
  scope: "public",
  method: "POST",
  path: "/control/users/verify_token",
  summary: "Check an emailed link's token",
  public: true,
  body: verifyTokenRequest,
  answers: { 200: verifyTokenResponse, ...INVALID },
});

export const setupPasswordCall = defineCall({
  operationId: "setupPassword",
  tag: "Account",
  scope: "public",
  method: "POST",
  path: "/control/users/setup_password",
  summary: "Choose a password with an emailed link's token",
  public: true,
  body: setupPasswordRequest,
  answers: { 200: setupPasswordResponse, ...INVALID },
});

export const healthCall = defineCall({
  operationId: "health",
  tag: "System",
  scope: "public",
  method: "GET",
  path: "/healthz",
  summary: "Whether the server reaches its database",
  public: true,
  answers: {
    200: z.object({ database: z.literal("up") }),
    503: z.object({ database: z.literal("down") }),
  },
});

export const openApiCall = defineCall({
  operationId: "openApi",
  tag: "System",
  scope: "public",
  method: "GET",
  path: "/control/openapi.json",
  summary: "This description (OpenAPI 3.1)",
  public: true,
  answers: { 200: z.looseObject({ openapi: z.string() }) },
});
