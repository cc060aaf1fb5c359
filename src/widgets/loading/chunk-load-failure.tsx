import { Trans } from "@lingui/react/macro";
import { ChunkTimeoutError } from "./load-chunk.ts";

/**
 * What a page or a question control shows when its code did not load: the 120-second time-out
 * (spec 01 section 9) or a failed download, with a retry.
 */
export function ChunkLoadFailure({
  error,
  onRetry,
  headingLevel = 1,
}: {
  error: unknown;
  onRetry: () => void;
  /** 1 when it replaces a page; null inside a question (a paragraph, not a heading). */
  headingLevel?: 1 | null;
}) {
  const Heading = headingLevel === 1 ? "h1" : "p";
  return (
    <div className="chunk-load-failure" role="alert">
      <Heading className="chunk-load-failure__title" tabIndex={headingLevel === 1 ? -1 : undefined}>
        {error instanceof ChunkTimeoutError ? (
          <Trans id="chunk_load_timeout">This part of the portal took too long to load.</Trans>
        ) : (
          <Trans id="chunk_load_failed">This part of the portal could not be loaded.</Trans>
        )}
      </Heading>
      <p>
        <Trans id="chunk_load_advice">
          Check the connection, then try again. Nothing you entered is lost.
        </Trans>
      </p>
      <button type="button" className="button button--primary" onClick={onRetry}>
        <Trans id="chunk_load_retry">Try again</Trans>
      </button>
    </div>
  );
}
