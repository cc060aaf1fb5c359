/**
 * The password typed at sign-in by a user with a temporary password, held in memory only so
 * that the forced change does not ask for it twice. Lost on reload, by design: then the
 * forced-change page asks for it.
 */
let held: string | undefined;

export function holdPassword(password: string) {
  held = password;
}

export function getHeldPassword() {
  return held;
}

export function clearHeldPassword() {
  held = undefined;
}
