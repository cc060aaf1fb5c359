/**
 * Staff management by administrators (issue: a site runs its own study, section 3): inviting a
 * user with their role and sites in each study, one or a CSV of many (docs/staff-import.md),
 * resending an invitation, changing a user's studies, sites and roles, deactivating a user.
 *
 * An invitation is a user without a usable password and with an activation link mailed to them;
 * the link works for STAFF_INVITATION_DAYS days, and a resent one replaces the earlier link.
 * A deactivated user keeps their account (their signatures and audit rows stay) but cannot sign
 * in; their email cannot be invited again until an administrator reactivates them.
 */
import * as z from "zod/mini";
import { errorBody } from "./errors.ts";
import { bodyId, rowId } from "./input-bounds.ts";
import { ROLE_CODE, WITNESS_ROLE } from "./roles.ts";
import { assignableRole } from "./user-edit.ts";
import { userRole } from "./user.ts";

/** How long an invitation's link works (the activation token's lifetime). */
export const STAFF_INVITATION_DAYS = 7;

/** The roles a user may be given in a study: the clinician roles and the witness. */
export const STAFF_STUDY_ROLES = [
  ROLE_CODE.clinicalStaff1,
  ROLE_CODE.clinicalStaff2,
  ROLE_CODE.clinicalStaff3,
  ROLE_CODE.clinicalCoordinator,
  WITNESS_ROLE,
] as const;
export const staffStudyRole = z.enum(STAFF_STUDY_ROLES, {
  error: `role must be one of ${STAFF_STUDY_ROLES.join(", ")}`,
});
export type StaffStudyRole = z.infer<typeof staffStudyRole>;

/** The role names a coordinator uses, in English (the CSV accepts them beside the codes). */
export const STAFF_STUDY_ROLE_NAMES: Record<StaffStudyRole, string> = {
  "11": "Clinical Staff Level 1",
  "12": "Clinical Staff Level 2",
  "13": "Clinical Staff Level 3",
  "16": "Clinical Coordinator",
  "Impartial Witness": "Impartial Witness",
};

/** The management role an invitation gives when none is chosen (the column's default too). */
export const DEFAULT_MANAGEMENT_ROLE = "researcher" as const;

export const STAFF_NAME_MAX_LENGTH = 200;
export const STAFF_EMAIL_MAX_LENGTH = 254;
/** The most sites one user is given in one study, and studies in one request. */
export const STAFF_MAX_SITES = 500;
export const STAFF_MAX_STUDIES = 100;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether a text is an email address (as the login takes it: trimmed, any case). */
export function isStaffEmail(text: string) {
  return text.length <= STAFF_EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(text);
}

export const staffEmail = z
  .string({ error: "email is required" })
  .check(
    z.trim(),
    z.toLowerCase(),
    z.minLength(1, "email is required"),
    z.maxLength(STAFF_EMAIL_MAX_LENGTH, `email must be at most ${STAFF_EMAIL_MAX_LENGTH} characters`),
    z.regex(EMAIL_PATTERN, "email must be an email address"),
  );

export const staffName = z
  .string({ error: "name is required" })
  .check(
    z.trim(),
    z.minLength(1, "name must not be blank"),
    z.maxLength(STAFF_NAME_MAX_LENGTH, `name must be at most ${STAFF_NAME_MAX_LENGTH} characters`),
  );

/**
 * A user's place in one study: their role there, the sites of it they work in, and whether they
 * may export the study's data of those sites (core/contracts/study-rights.ts). The export right
 * is never implied: left out, it is not given (a change of access that leaves it out takes it
 * away, as it does a site).
 */
export const staffStudyAccess = z.strictObject({
  study_id: bodyId("study_id"),
  role: staffStudyRole,
  site_ids: z
    .array(bodyId("site_id"), { error: "site_ids must be a list of site ids" })
    .check(
      z.minLength(1, "site_ids must name at least one site of the study"),
      z.maxLength(STAFF_MAX_SITES, `site_ids must name at most ${STAFF_MAX_SITES} sites`),
    ),
  may_export: z._default(z.boolean({ error: "may_export must be true or false" }), false),
});
export type StaffStudyAccess = z.infer<typeof staffStudyAccess>;
export type StaffStudyAccessInput = z.input<typeof staffStudyAccess>;

const staffStudies = z
  .array(staffStudyAccess, { error: "studies must be a list" })
  .check(z.maxLength(STAFF_MAX_STUDIES, `studies must name at most ${STAFF_MAX_STUDIES} studies`));

/** POST /control/users/invitations */
export const inviteStaffRequest = z.strictObject({
  email: staffEmail,
  name: staffName,
  /** enroller, researcher, studyManager or administrator (default researcher). */
  management_role: z._default(assignableRole, DEFAULT_MANAGEMENT_ROLE),
  studies: staffStudies,
});
export type InviteStaffRequest = z.input<typeof inviteStaffRequest>;
export type InviteStaff = z.infer<typeof inviteStaffRequest>;

/** PUT /control/users/{userId}/access: the user's management role and every study of theirs. */
export const staffAccessRequest = z.strictObject({
  management_role: assignableRole,
  /** Every study the user works in afterwards: a study left out is taken away. */
  studies: staffStudies,
});
export type StaffAccessRequest = z.infer<typeof staffAccessRequest>;

export const staffUserParams = z.object({ userId: rowId("userId") });

/**
 * Where an account stands: active (has a password), invited (its link still works),
 * invitation_expired (no password and no working link: resend it), deactivated.
 */
export const staffStatus = z.enum(["active", "invited", "invitation_expired", "deactivated"]);
export type StaffStatus = z.infer<typeof staffStatus>;

export const staffSite = z.object({
  site_id: z.number().check(z.int()),
  site_label: z.string(),
});

export const staffStudy = z.object({
  study_id: z.number().check(z.int()),
  study_name: z.string(),
  role: z.string(),
  sites: z.array(staffSite),
  /** Given the export right in this study (of these sites). */
  may_export: z.boolean(),
});
export type StaffStudy = z.infer<typeof staffStudy>;

/** A user as the staff pages show them. */
export const staffMember = z.object({
  id: z.number().check(z.int()),
  username: z.string(),
  name: z.string(),
  nickname: z.string(),
  role: userRole,
  status: staffStatus,
  /** ISO timestamp: until when the invitation's link works (invited), else null. */
  invitation_expires_at: z.nullable(z.string()),
  /** ISO timestamp of the deactivation, else null. */
  deactivated_at: z.nullable(z.string()),
  last_login: z.nullable(z.string()),
  studies: z.array(staffStudy),
});
export type StaffMember = z.infer<typeof staffMember>;

/** GET /control/users/study-sites: every study and its sites still in use, to choose from. */
export const assignableStudies = z.object({
  studies: z.array(
    z.object({
      study_id: z.number().check(z.int()),
      study_name: z.string(),
      sites: z.array(
        z.object({
          site_id: z.number().check(z.int()),
          site_label: z.string(),
          tree_level: z.number().check(z.int()),
          is_virtual: z.boolean(),
        }),
      ),
    }),
  ),
});
export type AssignableStudies = z.infer<typeof assignableStudies>;

// ---------------------------------------------------------------------------------------------
// The CSV import (docs/staff-import.md)

/** The most rows one import holds, and the most characters of its text. */
export const STAFF_IMPORT_MAX_ROWS = 2000;
export const STAFF_IMPORT_MAX_CHARS = 900_000;

/**
 * The CSV's columns: one row per user and study (a user in two studies has two rows with the
 * same email, name and management role). management_role may be left out or empty; may_export
 * too (then no export right: yes or no).
 */
export const STAFF_CSV_COLUMNS = [
  "email",
  "name",
  "management_role",
  "study_id",
  "role",
  "site_ids",
  "may_export",
] as const;
export const STAFF_CSV_REQUIRED_COLUMNS = ["email", "name", "study_id", "role", "site_ids"] as const;

/** POST /control/users/invitations/import */
export const staffImportRequest = z.strictObject({
  csv: z
    .string({ error: "csv is required: the file's text" })
    .check(
      z.minLength(1, "csv must not be empty"),
      z.maxLength(STAFF_IMPORT_MAX_CHARS, `csv must be at most ${STAFF_IMPORT_MAX_CHARS} characters`),
    ),
  dry_run: z._default(z.boolean({ error: "dry_run must be true or false" }), false),
});
export type StaffImportRequest = z.input<typeof staffImportRequest>;

/** One user of the file, as invited (or, in a dry run, as it would be). */
export const staffImportUser = z.object({
  /** The file's lines that name this user (the header is line 1). */
  lines: z.array(z.number().check(z.int(), z.positive())),
  email: z.string(),
  name: z.string(),
  management_role: assignableRole,
  studies: z.array(
    z.object({
      study_id: z.number().check(z.int()),
      role: z.string(),
      site_ids: z.array(z.number()),
      may_export: z.boolean(),
    }),
  ),
  /** The user made, or null in a dry run. */
  id: z.nullable(z.number().check(z.int())),
});
export type StaffImportUser = z.infer<typeof staffImportUser>;

export const staffImportResponse = z.object({
  dry_run: z.boolean(),
  /** How many users were (or would be) invited: every user of the file. */
  invited: z.number().check(z.int(), z.nonnegative()),
  users: z.array(staffImportUser),
});
export type StaffImportResponse = z.infer<typeof staffImportResponse>;

/** A bad row: its line, its email as written, and each problem by column. */
export const staffImportBadRow = z.object({
  line: z.number().check(z.int(), z.positive()),
  email: z.string(),
  issues: z.array(z.object({ field: z.string(), message: z.string() })),
});
export type StaffImportBadRow = z.infer<typeof staffImportBadRow>;

/**
 * The import's 400: when the file was read, `bad_rows` names every bad row (and `issues`
 * repeats each problem with the path csv[line].column). Nobody was invited.
 */
export const staffImportRefusal = z.extend(errorBody, {
  bad_rows: z.optional(z.array(staffImportBadRow)),
});
export type StaffImportRefusal = z.infer<typeof staffImportRefusal>;
