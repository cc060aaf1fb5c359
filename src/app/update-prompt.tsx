import { Trans } from "@lingui/react/macro";
import { useSyncExternalStore } from "react";
import { applyUpdate, isUpdateReady, subscribeToUpdates } from "./pwa-registration.ts";

/** Tells the user a new version is ready, and installs it when they choose. */
export function UpdatePrompt() {
  const ready = useSyncExternalStore(subscribeToUpdates, isUpdateReady, isUpdateReady);
  if (!ready) return null;
  return (
    <div className="update-prompt" role="status">
      <span>
        <Trans id="pwa_update_ready">A new version of the portal is ready.</Trans>
      </span>
      <button type="button" className="button button--primary" onClick={applyUpdate}>
        <Trans id="pwa_update_reload">Reload</Trans>
      </button>
    </div>
  );
}
