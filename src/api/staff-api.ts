/**
 * Staff management by administrators (core/contracts/calls/staff-calls.ts): the reads and the
 * mutation hooks of the users pages. Apart from users-api.ts, which the first download holds:
 * only the users pages, loaded on demand, use it. Every write refetches the user list.
 */
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import {
  deactivateUserCall,
  getStaffAccessCall,
  importStaffCall,
  inviteStaffCall,
  listAssignableStudiesCall,
  reactivateUserCall,
  resendInvitationCall,
  setStaffAccessCall,
} from "../../core/contracts/calls/staff-calls.ts";
import type {
  InviteStaffRequest,
  StaffAccessRequest,
  StaffImportRequest,
  StaffMember,
} from "../../core/contracts/staff.ts";
import { callApi } from "./call-api.ts";
import { userKeys } from "./users-api.ts";

export const staffKeys = {
  all: [...userKeys.all, "staff"] as const,
  studies: () => [...staffKeys.all, "studies"] as const,
  member: (userId: number) => [...staffKeys.all, "member", userId] as const,
};

/** The pages say what failed themselves: no generic notice, and a 403 is not an ended session. */
const PAGE_HANDLES_FAILURE = { suppressErrorToast: true, handle403Locally: true } as const;

export const assignableStudiesQuery = () =>
  queryOptions({
    queryKey: staffKeys.studies(),
    queryFn: ({ signal }) => callApi(listAssignableStudiesCall, {}, { signal, loader: true }),
  });

export const staffMemberQuery = (userId: number) =>
  queryOptions({
    queryKey: staffKeys.member(userId),
    queryFn: ({ signal }) =>
      callApi(getStaffAccessCall, { params: { userId } }, { signal, ...PAGE_HANDLES_FAILURE }),
  });

/** After a write: the member as answered, and the list (status, role) read again. */
function useMemberWrite<Input>(write: (input: Input) => Promise<StaffMember>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: async (member) => {
      queryClient.setQueryData(staffKeys.member(member.id), member);
      await queryClient.invalidateQueries({ queryKey: userKeys.list() });
    },
  });
}

export function useInviteStaff() {
  return useMemberWrite((body: InviteStaffRequest) =>
    callApi(inviteStaffCall, { body }, { ...PAGE_HANDLES_FAILURE, loaderKey: "staff-invite" }),
  );
}

export function useSetStaffAccess() {
  return useMemberWrite(({ userId, body }: { userId: number; body: StaffAccessRequest }) =>
    callApi(
      setStaffAccessCall,
      { params: { userId }, body },
      { ...PAGE_HANDLES_FAILURE, loaderKey: "staff-access" },
    ),
  );
}

export function useResendInvitation() {
  return useMemberWrite((userId: number) =>
    callApi(
      resendInvitationCall,
      { params: { userId } },
      { ...PAGE_HANDLES_FAILURE, loaderKey: "staff-resend" },
    ),
  );
}

export function useDeactivateUser() {
  return useMemberWrite((userId: number) =>
    callApi(
      deactivateUserCall,
      { params: { userId } },
      { ...PAGE_HANDLES_FAILURE, loaderKey: "staff-status" },
    ),
  );
}

export function useReactivateUser() {
  return useMemberWrite((userId: number) =>
    callApi(
      reactivateUserCall,
      { params: { userId } },
      { ...PAGE_HANDLES_FAILURE, loaderKey: "staff-status" },
    ),
  );
}

/** A CSV import or its dry run; a refusal's body names the bad rows (ApiError.body). */
export function useImportStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffImportRequest) =>
      callApi(importStaffCall, { body }, { ...PAGE_HANDLES_FAILURE, loaderKey: "staff-import" }),
    onSuccess: async (result) => {
      if (!result.dry_run) await queryClient.invalidateQueries({ queryKey: userKeys.list() });
    },
  });
}
