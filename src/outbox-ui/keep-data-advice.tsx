/**
 * What a clinician must know when the browser may clear this device's data: in Safari
 * (every iPad browser) a site's data, answers waiting to be sent included, may be cleared after
 * seven days without use unless the portal is installed to the Home Screen; elsewhere, when the
 * device runs low on space. Shown on the queue page, and on the studies page until dismissed.
 */
import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { mayBeCleared, runsInstalled } from "../outbox/persistent-storage.ts";
import { storageStatusQuery } from "./storage-status-query.ts";
import "./keep-data-advice.css";

export function KeepDataAdvice({ onDismiss }: { onDismiss?: () => void }) {
  return (
    <section className="keep-data-advice" aria-labelledby="keep-data-advice-heading">
      <h2 id="keep-data-advice-heading" className="keep-data-advice__heading">
        <Trans id="keep_data_heading">Install the portal on this tablet</Trans>
      </h2>
      <p>
        <Trans id="keep_data_body">
          On an iPad or iPhone, Safari may clear this site's data after seven days without use, answers
          waiting to be sent included. Installed to the Home Screen (Share, then Add to Home Screen), the
          portal keeps them. Other browsers may clear it when the device runs low on space.
        </Trans>
      </p>
      {onDismiss ? (
        <button type="button" className="button button--secondary" onClick={onDismiss}>
          <Trans id="keep_data_dismiss">Got it</Trans>
        </button>
      ) : null}
    </section>
  );
}

const DISMISSED_KEY = "clinro-keep-data-advice-dismissed";

/**
 * The advice where a clinician starts (the studies page), while the browser may clear this
 * device's data, until they dismiss it on this device.
 */
export function KeepDataHint() {
  const status = useQuery(storageStatusQuery());
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(DISMISSED_KEY) === "1");
  if (dismissed || !status.data || !mayBeCleared(status.data, runsInstalled())) return null;
  return (
    <KeepDataAdvice
      onDismiss={() => {
        localStorage.setItem(DISMISSED_KEY, "1");
        setDismissed(true);
      }}
    />
  );
}
