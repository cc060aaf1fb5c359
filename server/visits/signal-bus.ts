/**
 * Carries signalling messages between the server processes of one database, so that two peers
 * of a room connected to different servers hear each other. On PostgreSQL: NOTIFY on the
 * visit_signal channel, heard by every server's LISTEN (one dedicated connection each). A NOTIFY
 * payload must stay under 8000 bytes, and an SDP offer can be larger: such a message is stored
 * in visit_signal_spill and the notification carries its id. On PGlite there is one process, so
 * the bus carries nothing: the hub delivers to its own sockets itself.
 *
 * Order: messages are published one after another and handled one after another (a spilled
 * message is read before the next is handled), so an offer never arrives after its candidates.
 */
import { randomUUID } from "node:crypto";
import { eq, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { serverSignalMessage, type ServerSignalMessage } from "../../core/contracts/visits.ts";
import type { Database, DatabaseNotifications } from "../db/client.ts";
import { visitSignalSpill } from "../db/schema.ts";
import { errorSummary } from "../http/error-summary.ts";

export const SIGNAL_CHANNEL = "visit_signal";
/** Leaves room under PostgreSQL's 8000-byte limit for the channel name and framing. */
export const NOTIFY_PAYLOAD_MAX_BYTES = 7000;
/** Spilled messages older than this are swept. */
export const SPILL_KEEP_S = 300;

/** One message for the peers of one room. */
export type SignalEnvelope = {
  /** The server that published it: it has delivered it to its own sockets already. */
  origin: string;
  room: string;
  /** Only this peer; otherwise every peer of the room except `except`. */
  to?: string;
  except?: string;
  message: ServerSignalMessage;
  /** Close the receiving sockets after delivery (the room was ended). */
  close?: boolean;
};

const envelopeSchema = z.object({
  origin: z.string(),
  room: z.string(),
  to: z.string().optional(),
  except: z.string().optional(),
  message: serverSignalMessage,
  close: z.boolean().optional(),
});
const spillNotice = z.object({ origin: z.string(), spill: z.number().int() });

export type SignalBusLog = { error: (details: object, message: string) => void };

export type SignalBus = {
  /** This server's id: the origin of what it publishes, and the owner of its peers' rows. */
  readonly serverId: string;
  readonly crossesProcesses: boolean;
  start: (deliver: (envelope: SignalEnvelope) => void) => Promise<void>;
  publish: (envelope: SignalEnvelope) => Promise<void>;
  /** Periodic upkeep: sweeps old spilled messages. */
  sweep: () => Promise<void>;
  stop: () => Promise<void>;
};

export function createLocalBus(): SignalBus {
  return {
    serverId: randomUUID(),
    crossesProcesses: false,
    start: async () => {},
    publish: async () => {},
    sweep: async () => {},
    stop: async () => {},
  };
}

/** Runs tasks one at a time, in the order given. */
function serialQueue(log: SignalBusLog, what: string) {
  let tail: Promise<void> = Promise.resolve();
  return (task: () => Promise<void>) => {
    const run = tail.then(task);
    tail = run.catch((error: unknown) =>
      log.error({ failure: errorSummary(error) }, `Visit signalling: ${what} failed`),
    );
    return run;
  };
}

export function createPostgresBus(
  db: Database,
  notifications: DatabaseNotifications,
  log: SignalBusLog,
): SignalBus {
  const serverId = randomUUID();
  let unlisten: (() => Promise<void>) | undefined;
  const inOrder = serialQueue(log, "publishing");
  const receiveInOrder = serialQueue(log, "receiving");

  async function receive(payload: string, deliver: (envelope: SignalEnvelope) => void) {
    const raw: unknown = JSON.parse(payload);
    const notice = spillNotice.safeParse(raw);
    if (notice.success) {
      if (notice.data.origin === serverId) return;
      const [row] = await db
        .select({ payload: visitSignalSpill.payload })
        .from(visitSignalSpill)
        .where(eq(visitSignalSpill.id, notice.data.spill));
      if (!row) throw new Error(`Spilled signalling message ${notice.data.spill} is gone`);
      deliver(envelopeSchema.parse(JSON.parse(row.payload)));
      return;
    }
    const envelope = envelopeSchema.parse(raw);
    if (envelope.origin !== serverId) deliver(envelope);
  }

  return {
    serverId,
    crossesProcesses: true,
    async start(deliver) {
      unlisten = await notifications.listen(SIGNAL_CHANNEL, (payload) => {
        void receiveInOrder(() => receive(payload, deliver)).catch(() => {
          // Logged by the queue.
        });
      });
    },
    publish(envelope) {
      return inOrder(async () => {
        const json = JSON.stringify(envelope);
        if (Buffer.byteLength(json) <= NOTIFY_PAYLOAD_MAX_BYTES) {
          await notifications.notify(SIGNAL_CHANNEL, json);
          return;
        }
        const [row] = await db
          .insert(visitSignalSpill)
          .values({ payload: json })
          .returning({ id: visitSignalSpill.id });
        await notifications.notify(SIGNAL_CHANNEL, JSON.stringify({ origin: serverId, spill: row!.id }));
      });
    },
    async sweep() {
      await db
        .delete(visitSignalSpill)
        .where(lt(visitSignalSpill.createdAt, sql`now() - make_interval(secs => ${SPILL_KEEP_S})`));
    },
    async stop() {
      await unlisten?.();
      unlisten = undefined;
    },
  };
}
