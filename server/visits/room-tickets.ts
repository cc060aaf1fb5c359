/**
 * Room tickets of the built-in video service: a short-lived signed token (JWT, HS256) naming the
 * study, the room, the side (clinician or participant) and who it is, which the signalling
 * WebSocket's first message must carry. Signed with a key derived from the server's signing
 * secret for this purpose only, so a ticket is never a session token and a session token never a
 * ticket; servers sharing JWT_SECRET accept each other's tickets.
 */
import { createHmac } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import type { VisitRole } from "../../core/contracts/visits.ts";

const ALGORITHM = "HS256";
const PURPOSE = "visit_room";

export type RoomTicketClaims = {
  studyId: number;
  room: string;
  role: VisitRole;
  /** The user id (clinician) or participant id (participant). */
  subject: number;
};

export type RoomTicketCheck =
  | { ok: true; claims: RoomTicketClaims; expiresAt: Date }
  | { ok: false; reason: "bad_ticket" | "ticket_expired" };

export type RoomTicketSigner = {
  sign: (claims: RoomTicketClaims, expiresAt: Date) => Promise<string>;
  verify: (ticket: string) => Promise<RoomTicketCheck>;
};

export function createRoomTicketSigner(signingSecret: Uint8Array): RoomTicketSigner {
  const key = new Uint8Array(createHmac("sha256", signingSecret).update("clinro visit room ticket").digest());
  return {
    sign: (claims, expiresAt) =>
      new SignJWT({ purpose: PURPOSE, study: claims.studyId, room: claims.room, role: claims.role })
        .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
        .setSubject(String(claims.subject))
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key),
    async verify(ticket) {
      try {
        const { payload } = await jwtVerify(ticket, key, { algorithms: [ALGORITHM] });
        const { purpose, study, room, role, sub, exp } = payload;
        if (
          purpose !== PURPOSE ||
          typeof study !== "number" ||
          typeof room !== "string" ||
          (role !== "clinician" && role !== "participant") ||
          typeof sub !== "string" ||
          !/^\d+$/.test(sub) ||
          typeof exp !== "number"
        ) {
          return { ok: false, reason: "bad_ticket" };
        }
        return {
          ok: true,
          claims: { studyId: study, room, role, subject: Number(sub) },
          expiresAt: new Date(exp * 1000),
        };
      } catch (error) {
        const code = (error as { code?: string }).code;
        return { ok: false, reason: code === "ERR_JWT_EXPIRED" ? "ticket_expired" : "bad_ticket" };
      }
    },
  };
}
