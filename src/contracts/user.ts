import { z } from "zod";
import { onboardingState } from "./onboarding.ts";

export const sitePermission = z.object({
  site_id: z.number().int(),
  site_label: z.string(),
  tree_level: z.number().int(),
  is_virtual: z.boolean(),
});
export type SitePermission = z.infer<typeof sitePermission>;

export const studyPermission = z.object({
  study_id: z.number().int(),
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
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  nickname: z.string(),
  fname: z.string(),
  phone: z.string(),
  isPhoneEnabled: z.boolean(),
  countryDialCode: z.string(),
  role: userRole,
  scope: z.array(z.string()),
  last_login: z.string().nullable(),
  created_by: z.number().int().nullable(),
  has_consented: z.boolean(),
  is_temporary_password: z.boolean(),
  userImage: z.string().nullable(),
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
  name: z.string().trim().min(1, "name must not be empty").max(200).optional(),
  nickname: z.string().trim().min(1, "nickname must not be empty").max(200).optional(),
  isPhoneEnabled: z.boolean().optional(),
  phone: z
    .string()
    .max(32)
    .regex(/^\+?[0-9]*$/, "phone may hold only digits and a leading +")
    .optional(),
  countryDialCode: z
    .string()
    .max(8)
    .regex(/^(\+[0-9]{1,4})?$/, "countryDialCode must look like +1")
    .optional(),
});
export type PatchMeRequest = z.infer<typeof patchMeRequest>;
