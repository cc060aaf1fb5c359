/**
 * Enrolment (section 4 of the site set-up issue): who may add participants at a site, the
 * enrolment as an outbox write (it is never sent by a page: the outbox sends it, so a participant
 * added offline is enrolled once the connection is back), editing a participant, and a site's
 * CSV import with its dry run.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { editParticipantCall, importParticipantsCall } from "../../core/contracts/calls/enrolment-calls.ts";
import type { EditParticipantRequest, EnrolParticipantRequest } from "../../core/contracts/enrolment.ts";
export { enrolmentWrite } from "../outbox/enrolment-write.ts";
export { mayEnrolAt } from "./enrolment-access.ts";
import { callApi } from "./call-api.ts";
import { participantKeys } from "./participants-api.ts";

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
