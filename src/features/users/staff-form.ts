/**
 * The staff forms' rules (invite a user, change a user's access), as plain data: the choices per
 * study, what the request becomes, which fields are missing, and where a server's issue belongs.
 * The pages render; this decides.
 */
import type { AssignableRole } from "../../../core/contracts/user-edit.ts";
import {
  STAFF_STUDY_ROLES,
  isStaffEmail,
  type StaffMember,
  type StaffStudyAccess,
  type StaffStudyRole,
} from "../../../core/contracts/staff.ts";

/**
 * One study's choice: no role (no access), or a role, the sites, and whether they may export the
 * study's data of those sites (never implied: core/contracts/study-rights.ts).
 */
export type StudyChoice = { role: StaffStudyRole | ""; siteIds: readonly number[]; mayExport: boolean };
export type StudyChoices = Readonly<Record<number, StudyChoice>>;

export type StaffFormProblem = "name_missing" | "email_invalid" | "sites_missing";
export type StaffFormProblems = {
  name?: "name_missing";
  email?: "email_invalid";
  /** Per study id: a role without a site. */
  studies: Readonly<Record<number, "sites_missing">>;
};

export const NO_ACCESS: StudyChoice = { role: "", siteIds: [], mayExport: false };

export function isStudyRole(value: string): value is StaffStudyRole {
  return (STAFF_STUDY_ROLES as readonly string[]).includes(value);
}

/** The choices a member's current access makes (for the access page's first state). */
export function choicesOf(member: Pick<StaffMember, "studies">): StudyChoices {
  return Object.fromEntries(
    member.studies.map((study) => [
      study.study_id,
      {
        role: isStudyRole(study.role) ? study.role : "",
        siteIds: study.sites.map((site) => site.site_id),
        mayExport: study.may_export,
      },
    ]),
  );
}

/** Picking a role for a study with one site ticks it: there is nothing else to choose. */
export function chooseRole(
  choice: StudyChoice,
  role: StaffStudyRole | "",
  siteIdsOfStudy: readonly number[],
): StudyChoice {
  if (role === "") return NO_ACCESS;
  const only = siteIdsOfStudy.length === 1 && choice.siteIds.length === 0 ? siteIdsOfStudy : choice.siteIds;
  return { role, siteIds: only, mayExport: choice.mayExport };
}

export function toggleSite(choice: StudyChoice, siteId: number, selected: boolean): StudyChoice {
  const others = choice.siteIds.filter((id) => id !== siteId);
  return { ...choice, siteIds: selected ? [...others, siteId].sort((a, b) => a - b) : others };
}

/** The request's studies: each study given a role, with its sites, in study order. */
export function studiesRequest(choices: StudyChoices): StaffStudyAccess[] {
  return Object.entries(choices)
    .flatMap(([studyId, choice]) =>
      choice.role === ""
        ? []
        : [
            {
              study_id: Number(studyId),
              role: choice.role,
              site_ids: [...choice.siteIds],
              may_export: choice.mayExport,
            },
          ],
    )
    .sort((a, b) => a.study_id - b.study_id);
}

/** What keeps the form from being sent (the invite form checks name and email too). */
export function staffFormProblems(form: {
  name?: string;
  email?: string;
  studies: StudyChoices;
}): StaffFormProblems {
  const studies: Record<number, "sites_missing"> = {};
  for (const [studyId, choice] of Object.entries(form.studies)) {
    if (choice.role !== "" && choice.siteIds.length === 0) studies[Number(studyId)] = "sites_missing";
  }
  return {
    ...(form.name !== undefined && form.name.trim() === "" ? { name: "name_missing" as const } : {}),
    ...(form.email !== undefined && !isStaffEmail(form.email.trim())
      ? { email: "email_invalid" as const }
      : {}),
    studies,
  };
}

export function hasProblems(problems: StaffFormProblems) {
  return (
    problems.name !== undefined || problems.email !== undefined || Object.keys(problems.studies).length > 0
  );
}

/** The form field a server issue's path names: email, name, management_role, or a study's index. */
export function fieldOfIssue(path: string): "email" | "name" | "management_role" | "studies" | null {
  const head = path.split(".")[0] ?? "";
  return head === "email" || head === "name" || head === "management_role" || head === "studies"
    ? head
    : null;
}

export type StaffInviteForm = {
  name: string;
  email: string;
  managementRole: AssignableRole;
  studies: StudyChoices;
};
