/**
 * The calls without a session that get a user (back) to a password, spec 01 section 7:
 * forgot_password and forgot_username mail a link or the username; verify_token and
 * setup_password follow an emailed link (/users/activate or /users/reset?token=...).
 */
import * as z from "zod/mini";
import { PLATFORM } from "./roles.ts";
import { meetsPasswordPolicy } from "./password-policy.ts";

/** Spec 01 section 5. */
export const PASSWORD_RULES_MESSAGE = "Please make sure your password meets all of the required criteria.";
export const PASSWORDS_DO_NOT_MATCH_MESSAGE = "Passwords do not match";
/** Spec 01 section 8: the answer to a link token that is unknown, expired or already used. */
export const TOKEN_REJECTED_MESSAGE = "Unable to authenticate user.";

/** POST /control/users/forgot_password (no auth) */
export const forgotPasswordRequest = z.object({
  username: z
    .string({ error: "username is required" })
    .check(z.trim(), z.minLength(1, "username is required"), z.maxLength(320)),
  platform: z.literal(PLATFORM, { error: `platform must be '${PLATFORM}'` }),
});
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequest>;

/** POST /control/participants/me/forgot_username (no auth): the username is the login email. */
export const forgotUsernameRequest = z.object({
  email: z
    .string({ error: "email is required" })
    .check(z.trim(), z.minLength(1, "email is required"), z.maxLength(320)),
});
export type ForgotUsernameRequest = z.infer<typeof forgotUsernameRequest>;

/**
 * The answer of both forgot calls: always this, whether an account matched or not, so that
 * the calls do not tell who has an account.
 */
export const accountMailAccepted = z.object({ message: z.string() });
export type AccountMailAccepted = z.infer<typeof accountMailAccepted>;

const linkToken = z
  .string({ error: "token is required" })
  .check(z.trim(), z.minLength(1, "token is required"), z.maxLength(512, "token is too long"));

/** POST /control/users/verify_token (no auth) */
export const verifyTokenRequest = z.object({ token: linkToken });
export type VerifyTokenRequest = z.infer<typeof verifyTokenRequest>;

export const verifyTokenResponse = z.object({
  /** A JWT with PasswordSetupTokenPayload: read it, it is not a session. */
  token: z.string(),
  /** The user has set a password already (the link of an account already activated). */
  hasPassword: z.boolean(),
});
export type VerifyTokenResponse = z.infer<typeof verifyTokenResponse>;

/** The payload of verify_token's JWT: the user the link is for, until the link expires. */
export const passwordSetupTokenPayload = z.object({
  id: z.number().check(z.int()),
  username: z.string(),
  purpose: z.literal("password_setup"),
  exp: z.number(),
  iat: z.optional(z.number()),
});
export type PasswordSetupTokenPayload = z.infer<typeof passwordSetupTokenPayload>;

/** POST /control/users/setup_password (no auth) */
export const setupPasswordRequest = z
  .object({
    password: z
      .string({ error: "password is required" })
      .check(z.maxLength(1024), z.refine(meetsPasswordPolicy, PASSWORD_RULES_MESSAGE)),
    password_confirmation: z.string({ error: "password_confirmation is required" }).check(z.maxLength(1024)),
    /** Optional: when given (non-empty) it must be the user's current password. */
    old_password: z.nullish(z.string().check(z.maxLength(1024))),
    /** The token of the emailed link's query string. */
    token: linkToken,
    platform_type: z.literal(PLATFORM, { error: `platform_type must be '${PLATFORM}'` }),
  })
  .check(
    z.refine((body) => body.password === body.password_confirmation, {
      message: PASSWORDS_DO_NOT_MATCH_MESSAGE,
      path: ["password_confirmation"],
    }),
  );
export type SetupPasswordRequest = z.infer<typeof setupPasswordRequest>;

export const setupPasswordResponse = z.object({
  message: z.string(),
  /** Whose password was set: the sign-in form may fill it in. */
  username: z.string(),
});
export type SetupPasswordResponse = z.infer<typeof setupPasswordResponse>;
