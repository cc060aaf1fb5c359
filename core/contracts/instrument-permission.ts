/**
 * Whether the signed-in user may administer an instrument (spec 02 section 6): the user's role
 * in the study must be one of the instrument's permission codes, which the definition call
 * brings along. Without codes (an older server) the server's refusal of the submission is the
 * check.
 */

export function mayAdminister(permissions: readonly string[] | undefined, role: string | undefined) {
  return permissions === undefined || isPermitted(permissions, role);
}

/** Whether the user's clinician role in the study is one of the form's permission codes. */
export function isPermitted(permissions: readonly string[], role: string | undefined) {
  return role !== undefined && permissions.includes(role);
}
