/**
 * Spec 01 section 9: a script chunk (a lazily loaded page or question control) that has not
 * arrived after 120 seconds fails with a clear message and a retry, instead of a page that
 * spins for ever on a bad connection. Every dynamic import of a lazy route or lazy question
 * type goes through withChunkTimeout.
 */

/** How long a script chunk may take to load. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** A chunk that did not arrive in time. */
export class ChunkTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`A part of the application did not load within ${timeoutMs / 1000} seconds.`);
    this.name = "ChunkTimeoutError";
  }
}

/**
 * Loads a chunk, failing with ChunkTimeoutError after `timeoutMs`. Calling it again (a retry)
 * asks the browser for the chunk again; a load that arrives late is used then.
 */
export function withChunkTimeout<M>(
  load: () => Promise<M>,
  timeoutMs = CHUNK_LOAD_TIMEOUT_MS,
): () => Promise<M> {
  return () =>
    new Promise<M>((resolve, reject) => {
      const timer = setTimeout(() => reject(new ChunkTimeoutError(timeoutMs)), timeoutMs);
      load().then(
        (module) => {
          clearTimeout(timer);
          resolve(module);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
}

/** Whether an error is a chunk that did not load (timed out, or the fetch of the script failed). */
export function isChunkLoadError(error: unknown): boolean {
  if (error instanceof ChunkTimeoutError) return true;
  if (!(error instanceof Error)) return false;
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed/i.test(
    error.message,
  );
}
