/**
 * The enrolment the outbox holds for a participant added on this device (a provisional id,
 * provisional-participants.ts), with its body and whether the server refused it: what the
 * offline participant's page and the consent signed for them show of the participant.
 */
import type { EnrolParticipantRequest } from "../../core/contracts/enrolment.ts";
import type { OutboxItem, OutboxItemStatus } from "./outbox-item.ts";

export type PendingEnrolment = {
  item: OutboxItem & { status: OutboxItemStatus };
  body: EnrolParticipantRequest;
  /** waiting: not answered yet; refused: the server refused it (kept, to correct). */
  state: "waiting" | "refused";
};

/** The enrolment the outbox holds for a provisional participant, with its body. */
export function pendingEnrolmentOf(
  items: readonly (OutboxItem & { status: OutboxItemStatus })[],
  provisionalId: number,
  readBody: (value: unknown) => EnrolParticipantRequest | undefined,
): PendingEnrolment | undefined {
  const item = items.find(
    (candidate) => candidate.kind === "enrolment" && candidate.participantId === provisionalId,
  );
  if (!item || item.request.body.type !== "json") return undefined;
  const body = readBody(item.request.body.value);
  if (!body) return undefined;
  return { item, body, state: item.state === "failed" ? "refused" : "waiting" };
}
