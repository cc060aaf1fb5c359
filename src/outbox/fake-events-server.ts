/**
 * For unit tests of screens that send events through the outbox: a fake server behind `fetch`
 * that the real outbox drains to, and the outbox emptied around each test. The screen, the outbox
 * (fake IndexedDB) and the drain stay real; only the network is replaced.
 */
import { vi } from "vitest";
import { postEventsCall } from "../../core/contracts/calls/event-calls.ts";
import { listItems, removeItem } from "./outbox-store.ts";
import { removeSessionToken, saveSessionToken } from "./session-tokens.ts";

type SentRequest = { method: string; path: string; body: unknown };
type SentEvent = { type: string } & Record<string, unknown>;

export type FakeEventsServer = {
  /** Every write the outbox made, in order. */
  sent: SentRequest[];
  /** The paths of the reads the screen made; each was answered 404. */
  reads: string[];
  /** While set, writes fail as a lost connection does. */
  offline: boolean;
  /** The events the server received, in order. */
  events(): SentEvent[];
};

/** Replaces `fetch` (until `vi.unstubAllGlobals`): writes answer 200 and are recorded, reads 404. */
export function stubEventsServer(): FakeEventsServer {
  const server: FakeEventsServer = {
    sent: [],
    reads: [],
    offline: false,
    events: () =>
      server.sent
        .filter((request) => request.path === postEventsCall.path)
        .flatMap((request) => request.body as SentEvent[]),
  };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), "http://localhost");
      const method = init.method ?? "GET";
      if (method === "GET") {
        server.reads.push(url.pathname);
        return new Response(JSON.stringify({ message: "no" }), { status: 404 });
      }
      if (server.offline) throw new TypeError("Failed to fetch");
      const body = typeof init.body === "string" ? (JSON.parse(init.body) as unknown) : init.body;
      server.sent.push({ method, path: url.pathname, body });
      return new Response(JSON.stringify({ message: "ok" }), { status: 200 });
    }),
  );
  return server;
}

/** The events still waiting in the outbox, in the order they were queued. */
export async function queuedEvents(): Promise<SentEvent[]> {
  return (await listItems())
    .filter((item) => item.kind === "event")
    .flatMap((item) => (item.request.body.type === "json" ? (item.request.body.value as SentEvent[]) : []));
}

async function emptyOutbox() {
  for (const item of await listItems()) await removeItem(item.id);
}

/** An empty outbox and a signed-in user whose token the drain sends, valid for an hour. */
export async function startWithEmptyOutbox(userId: number) {
  await emptyOutbox();
  await saveSessionToken(userId, `token-of-user-${userId}`, Math.floor(Date.now() / 1000) + 3600);
}

/** Puts `fetch` back and leaves nothing queued or signed in for the next test. */
export async function endWithEmptyOutbox(userId: number) {
  vi.unstubAllGlobals();
  await emptyOutbox();
  await removeSessionToken(userId);
}
