/**
 * Whether the forced password change has just been made in this page load: its confirmation then
 * stays on screen although the account's password is no longer temporary (the new token re-runs
 * the route guards). Cleared when the confirmation is left; a reload forgets it.
 */
let justSet = false;

export function markPasswordJustSet(value: boolean) {
  justSet = value;
}

export function passwordJustSet(): boolean {
  return justSet;
}
