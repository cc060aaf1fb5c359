/**
 * Whether the signed-in user may administer an instrument (spec 02 section 6): the user's role
 * in the study must be one of the instrument's permission codes, which the definition call
 * brings along. Without codes (an older server) the server's refusal of the submission is the
 * check.
 */
import { isPermitted } from "../participant-home/instrument-lists.ts";

export function mayAdminister(permissions: readonly string[] | undefined, role: string | undefined) {
  return permissions === undefined || isPermitted(permissions, role);
}
