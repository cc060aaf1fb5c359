/**
 * A draft has one owner at a time across tabs (src/outbox/drafts.ts): a second tab says where
 * the answers are instead of forking them. The instrument and consent pages show this.
 */
import { Trans } from "@lingui/react/macro";

export function DraftOpenElsewhere({ kind }: { kind: "instrument" | "consent" }) {
  return (
    <div className="page page--narrow">
      <h1 tabIndex={-1}>
        {kind === "consent" ? (
          <Trans id="consent_open_elsewhere">This consent is open in another tab.</Trans>
        ) : (
          <Trans id="instrument_open_elsewhere">This instrument is open in another tab.</Trans>
        )}
      </h1>
      <p>
        <Trans id="instrument_open_elsewhere_body">
          Continue it there, or close that tab and reload this one. Its answers are kept.
        </Trans>
      </p>
    </div>
  );
}
