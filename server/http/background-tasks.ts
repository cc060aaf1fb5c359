/**
 * Work a request starts but does not wait for (account mail): the answer must not depend on it,
 * so that, for example, forgot_password answers alike and as fast for unknown and known users.
 * Owns the set of tasks still running; failures are logged, never thrown at the caller.
 * drain() waits for them: app close does, and so can tests.
 */
import { errorSummary } from "./error-summary.ts";
export type BackgroundTasks = {
  run: (name: string, task: () => Promise<void>) => void;
  drain: () => Promise<void>;
};

export type BackgroundLog = { error: (details: object, message: string) => void };

export function createBackgroundTasks(log: BackgroundLog): BackgroundTasks {
  const running = new Set<Promise<void>>();
  return {
    run(name, task) {
      const promise = (async () => {
        try {
          await task();
        } catch (error) {
          log.error({ failure: errorSummary(error), task: name }, `Background task ${name} failed`);
        }
      })();
      running.add(promise);
      void promise.finally(() => running.delete(promise));
    },
    async drain() {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}
