import * as z from "zod/mini";
import { onboardingState } from "./onboarding.ts";

export const sitePermission = z.object({
  site_id: z.number().check(z.int()),
  site_label: z.string(),
  tree_level: z.number().check(z.int()),
  is_virtual: z.boolean(),
});
export type SitePermission = z.infer<typeof sitePermission>;

export const studyPermission = z.object({
  study_id: z.number().check(z.int()),
  study_name: z.string(),
  /** The clinician role in this study: '11', '12', '13', '16' or 'Impartial Witness'. */
  role: z.string(),
  scope: z.array(z.string()),
  sms_enabled: z.boolean(),
  /** The study has the new consent flow (newConsentEnabled). */
  consent_2: z.boolean(),
  sites: z.array(sitePermission),
});
export type StudyPermission = z.infer<typeof studyPermission>;

export const userRole = z.enum(["enroller", "researcher", "studyManager", "administrator", "edit"]);

/** GET /control/clinro/users/me */
export const meResponse = z.object({
  id: z.number().check(z.int()),
  username: z.string(),
  name: z.string(),
  nickname: z.string(),
  fname: z.string(),
  phone: z.string(),
  isPhoneEnabled: z.boolean(),
  countryDialCode: z.string(),
  role: userRole,
  scope: z.array(z.string()),
  last_login: z.nullable(z.string()),
  created_by: z.nullable(z.number().check(z.int())),
  has_consented: z.boolean(),
  is_temporary_password: z.boolean(),
  userImage: z.nullable(z.string()),
  /** The onboarding cards dismissed (true) or still to show (false). */
  onboarding: onboardingState,
  /** Keyed by study id. */
  permissions: z.record(z.string(), studyPermission),
});
export type MeResponse = z.infer<typeof meResponse>;

/**
 * PATCH /control/clinro/users/me: the client sends the whole user with nickname and phone
 * replaced; only these fields are taken, the rest is ignored.
 */
export const patchMeRequest = z.object({
  name: z.optional(z.string().check(z.trim(), z.minLength(1, "name must not be empty"), z.maxLength(200))),
  nickname: z.optional(
    z.string().check(z.trim(), z.minLength(1, "nickname must not be empty"), z.maxLength(200)),
  ),
  isPhoneEnabled: z.optional(z.boolean()),
  phone: z.optional(
    z.string().check(z.maxLength(32), z.regex(/^\+?[0-9]*$/, "phone may hold only digits and a leading +")),
  ),
  countryDialCode: z.optional(
    z.string().check(z.maxLength(8), z.regex(/^(\+[0-9]{1,4})?$/, "countryDialCode must look like +1")),
  ),
});
export type PatchMeRequest = z.infer<typeof patchMeRequest>;
