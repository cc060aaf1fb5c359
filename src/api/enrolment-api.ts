/**
 * Enrolment (section 4 of the site set-up issue): who may add participants at a site, the
 * enrolment as an outbox write (it is never sent by a page: the outbox sends it, so a participant
 * added offline is enrolled once the connection is back), editing a participant, and a site's
 * CSV import with its dry run.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { editParticipantCall, importParticipantsCall } from "../../core/contracts/calls/enrolment-calls.ts";
import type { EditParticipantRequest, EnrolParticipantRequest } from "../../core/contracts/enrolment.ts";
import { managementRoleAllows } from "../../core/contracts/management-roles.ts";
import { ROLE_CODE } from "../../core/contracts/roles.ts";
import type { MeResponse } from "../../core/contracts/user.ts";
export { enrolmentWrite } from "../outbox/enrolment-write.ts";
import { callApi } from "./call-api.ts";
import { participantKeys } from "./participants-api.ts";

/**
 * Whether the user may add and change participants at this site of this study: an enroller,
 * study manager or administrator (their management role), or the study's Clinical Coordinator
 * (16); in both cases only at a site of the study they work in. The server checks the same.
 */
export function mayEnrolAt(
  user:
    | { role?: MeResponse["role"] | undefined; permissions?: MeResponse["permissions"] | undefined }
    | null
    | undefined,
  studyId: number,
  siteId: number,
) {
  const study = user?.permissions?.[String(studyId)];
  if (!user || !study || !study.sites.some((site) => site.site_id === siteId)) return false;
  return managementRoleAllows(user.role, "participants") || study.role === ROLE_CODE.clinicalCoordinator;
}

/** The enrolment body an outbox item holds, when it is one this app wrote. */
export function enrolmentBodyOf(value: unknown): EnrolParticipantRequest | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const body = value as Partial<EnrolParticipantRequest>;
  return typeof body.client_id === "string" &&
    typeof body.subject_id === "string" &&
    typeof body.fname === "string" &&
    typeof body.lname === "string"
    ? (body as EnrolParticipantRequest)
    : undefined;
}

/** PATCH /control/studies/{studyId}/sites/{siteId}/participants/{participantId}: every field. */
export function editParticipant(
  studyId: number,
  siteId: number,
  participantId: number,
  fields: EditParticipantRequest,
) {
  return callApi(
    editParticipantCall,
    { params: { studyId, siteId, participantId }, body: fields },
    // The form shows a refusal next to the field it names.
    { suppressErrorToast: true, handle403Locally: true, loaderKey: "participant-edit" },
  );
}

export function useEditParticipant(studyId: number, siteId: number, participantId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: EditParticipantRequest) => editParticipant(studyId, siteId, participantId, fields),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: participantKeys.all }),
  });
}

/** POST /control/studies/{studyId}/sites/{siteId}/participants/import: a dry run, or the import. */
export function importParticipants(studyId: number, siteId: number, csv: string, dryRun: boolean) {
  return callApi(
    importParticipantsCall,
    { params: { studyId, siteId }, body: { csv, dry_run: dryRun } },
    // A refused file is the page's to explain, row by row.
    { suppressErrorToast: true, handle403Locally: true, loaderKey: "participant-import" },
  );
}

export function useImportParticipants(studyId: number, siteId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ csv, dryRun }: { csv: string; dryRun: boolean }) =>
      importParticipants(studyId, siteId, csv, dryRun),
    onSuccess: async (answer) => {
      if (!answer.dry_run) await queryClient.invalidateQueries({ queryKey: participantKeys.all });
    },
  });
}
