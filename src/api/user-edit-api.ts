/**
 * Editing another user (spec 01 section 4): the call and its mutation hook. Apart from
 * users-api.ts, which the first download holds: only the users pages use it.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { editUserCall } from "../../core/contracts/calls/user-edit-calls.ts";
import type { EditUserRequest } from "../../core/contracts/user-edit.ts";
import { type UsersResponse } from "../../core/contracts/users.ts";
import { userKeys } from "./users-api.ts";
import { callApi } from "./call-api.ts";

/**
 * PATCH /control/users/{userId}: another user's nickname or role. The edit page shows its own
 * failure message, so the generic notice is suppressed.
 */
export function editUser(userId: number, changes: EditUserRequest) {
  return callApi(
    editUserCall,
    { params: { userId }, body: changes },
    {
      suppressErrorToast: true, // A refusal means "not this user", not an ended session: the page says so.
      handle403Locally: true,
      loaderKey: "user-edit",
    },
  );
}

/** Saves an edit, then puts the saved user into the cached list and refetches it. */
export function useEditUserMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, changes }: { userId: number; changes: EditUserRequest }) =>
      editUser(userId, changes),
    onSuccess: async (saved) => {
      queryClient.setQueryData<UsersResponse>(userKeys.list(), (list) =>
        list ? { users: list.users.map((user) => (user.id === saved.id ? saved : user)) } : list,
      );
      await queryClient.invalidateQueries({ queryKey: userKeys.list() });
    },
  });
}
