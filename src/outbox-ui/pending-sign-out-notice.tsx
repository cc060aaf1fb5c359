/**
 * On the sign-in page after a sign-out the server has not heard of yet (offline: the revocation
 * waits in the outbox, src/outbox/session-revocation.ts): the session is closed on this device
 * and will be on the server when the connection is back. Shown once a try to send it failed, so
 * that an online sign-out, sent at once, shows nothing; gone when it is delivered.
 */
import { Trans } from "@lingui/react/macro";
import { useOutboxItems } from "./use-outbox.ts";

export function PendingSignOutNotice() {
  const { data } = useOutboxItems();
  const waiting = (data ?? []).some((item) => item.kind === "revocation" && item.lastError !== undefined);
  return (
    <p className="auth-card__notice" role="status">
      {waiting ? (
        <Trans id="sign_out_pending_on_server">
          You are signed out on this device. There is no connection to the server now: your session will be
          closed on the server as soon as the connection is back.
        </Trans>
      ) : null}
    </p>
  );
}
