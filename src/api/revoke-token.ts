/**
 * Signs a token out on the server. Best effort: signing out locally never waits for, or fails
 * on, the network.
 */
import { logoutCall } from "../../core/contracts/calls/account-calls.ts";

export function revokeToken(token: string) {
  void fetch(logoutCall.path, {
    method: logoutCall.method,
    headers: { Authorization: `Bearer ${token}` },
    keepalive: true,
  }).catch(() => undefined);
}
