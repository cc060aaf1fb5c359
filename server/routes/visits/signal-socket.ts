/**
 * WebSocket GET /control/visits/signal: the built-in video service's signalling (see
 * server/visits/signal-hub.ts for the protocol). No Authorization header (browsers cannot set
 * one on a WebSocket): the first message carries the room ticket.
 */
import type { FastifyInstance } from "fastify";
import { SIGNAL_PATH } from "../../../core/contracts/visits.ts";
import type { SignalHub } from "../../visits/signal-hub.ts";

export function signalSocketRoutes(app: FastifyInstance, hub: SignalHub) {
  app.get(SIGNAL_PATH, { websocket: true }, (socket) => {
    hub.accept(socket);
  });
}
