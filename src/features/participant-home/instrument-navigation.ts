/**
 * Opening an instrument: in the newer architecture a read event goes to the outbox first, then
 * the instrument route opens (built by the survey engine issue).
 */
import { eventsWrite, type WriteContext } from "../../outbox/enqueue.ts";
import { enqueueEvent } from "../../outbox-ui/enqueue-event.ts";
import { readEvent, todoEvents, type ListEventContext, type TodoRow } from "./instrument-lists.ts";

/** The {instrument} segment: the last segment of the instrument's url. */
export function instrumentSegment(url: string) {
  return url.split("/").filter(Boolean).at(-1) ?? "";
}

/**
 * /studies/{studyId}/sites/{siteId}/participants/{participantId}/instruments/{instrumentId}/{instrument},
 * with ?instance_id= naming the delivery, so the submission completes that one.
 */
export function instrumentPath(studyId: number, siteId: number, participantId: number, row: TodoRow) {
  return `/studies/${studyId}/sites/${siteId}/participants/${participantId}/instruments/${row.instrumentId}/${instrumentSegment(row.url)}?instance_id=${row.instanceId}`;
}

export async function sendReadEvent(
  row: TodoRow,
  context: ListEventContext,
  write: WriteContext,
  label: string,
) {
  await enqueueEvent(eventsWrite([readEvent(row, context, new Date())], label), write);
}

/** Sends the to-do rows' delivered and visible events not yet in `sent`, and records them there. */
export async function sendTodoEvents(
  rows: readonly TodoRow[],
  context: ListEventContext,
  write: WriteContext,
  sent: Set<string>,
  label: string,
) {
  const fresh = todoEvents(rows, context, new Date()).filter((event) => !sent.has(event.key));
  if (fresh.length === 0) return;
  for (const event of fresh) sent.add(event.key);
  await enqueueEvent(
    eventsWrite(
      fresh.map((event) => event.record),
      label,
    ),
    write,
  );
}
