/**
 * Signs a token out on the server. Best effort: signing out locally never waits for, or fails
 * on, the network.
 */
export function revokeToken(token: string) {
  void fetch("/control/clinro/logout", {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    keepalive: true,
  }).catch(() => undefined);
}
