import * as z from "zod/mini";
import { meetsPasswordPolicy } from "./password-policy.ts";

export const loginRequest = z.object({
  username: z.string().check(z.trim(), z.minLength(1, "username is required"), z.maxLength(320)),
  password: z.string().check(z.minLength(1, "password is required"), z.maxLength(1024)),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const loginResponse = z.object({
  token: z.string(),
  id: z.number().check(z.int()),
  username: z.string(),
  is_temporary_password: z.boolean(),
});
export type LoginResponse = z.infer<typeof loginResponse>;

/** What the token carries; the client merges it into the stored user. */
export const tokenPayload = z.object({
  id: z.number().check(z.int()),
  username: z.string(),
  exp: z.number(),
  iat: z.optional(z.number()),
});
export type TokenPayload = z.infer<typeof tokenPayload>;

export const changePasswordRequest = z.object({
  old_password: z.string().check(z.minLength(1, "old_password is required"), z.maxLength(1024)),
  new_password: z
    .string()
    .check(z.maxLength(1024), z.refine(meetsPasswordPolicy, "new_password does not meet the password rules")),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

/** Changing the password revokes every earlier token, so the answer carries a fresh one. */
export const changePasswordResponse = z.object({ token: z.string() });
export type ChangePasswordResponse = z.infer<typeof changePasswordResponse>;
