/**
 * A test's peer on the visit signalling WebSocket (the `ws` package): sends client messages and
 * hands over the server's messages one at a time, in order, and how the socket closed.
 */
import WebSocket from "ws";
import {
  SIGNAL_PATH,
  serverSignalMessage,
  type ClientSignalMessage,
  type ServerSignalMessage,
} from "../../core/contracts/visits.ts";

export type SignalClient = {
  socket: WebSocket;
  send: (message: ClientSignalMessage | string | Buffer) => void;
  /** The next message from the server; fails if none arrives within timeoutMs. */
  next: (timeoutMs?: number) => Promise<ServerSignalMessage>;
  /** Resolves with the close code once the socket is closed. */
  closed: Promise<number>;
  close: () => Promise<number>;
};

/** baseUrl: http://host:port of a listening server. */
export async function connectSignal(baseUrl: string): Promise<SignalClient> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, "ws")}${SIGNAL_PATH}`);
  const inbox: ServerSignalMessage[] = [];
  const waiting: ((message: ServerSignalMessage) => void)[] = [];
  socket.on("message", (data) => {
    const message = serverSignalMessage.parse(JSON.parse(String(data)));
    const waiter = waiting.shift();
    if (waiter) waiter(message);
    else inbox.push(message);
  });
  const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  return {
    socket,
    send(message) {
      socket.send(
        typeof message === "string" || Buffer.isBuffer(message) ? message : JSON.stringify(message),
      );
    },
    next(timeoutMs = 10_000) {
      const queued = inbox.shift();
      if (queued) return Promise.resolve(queued);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          const index = waiting.indexOf(deliver);
          if (index >= 0) waiting.splice(index, 1);
          reject(new Error(`No signalling message within ${timeoutMs} ms`));
        }, timeoutMs);
        const deliver = (message: ServerSignalMessage) => {
          clearTimeout(timer);
          resolve(message);
        };
        waiting.push(deliver);
      });
    },
    closed,
    close() {
      if (socket.readyState !== WebSocket.CLOSED) socket.close();
      return closed;
    },
  };
}
