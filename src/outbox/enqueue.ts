/**
 * Handing a write to the outbox: it is stored in IndexedDB first, then a flush is asked for.
 * The returned id is the item's Idempotency-Key.
 */
import { postEventsCall } from "../../core/contracts/calls/event-calls.ts";
import { uploadFileCall } from "../../core/contracts/calls/file-calls.ts";
import type { OutboxBody, OutboxItem, OutboxKind, OutboxRequest, StoredFile } from "./outbox-item.ts";
import { listItems, putItem, removeItem, updateItem } from "./outbox-store.ts";
import { indexedDbParticipantIds } from "./participant-id-store.ts";
import {
  isProvisionalParticipantId,
  newProvisionalParticipantId,
  withEnrolledParticipant,
} from "./provisional-participants.ts";
import type { FileUploadFields } from "../../core/contracts/files.ts";
import { PLATFORM } from "../../core/contracts/roles.ts";

export type WriteContext = {
  userId: number;
  username: string;
  studyId?: number;
  siteId?: number;
  participantId?: number;
};

/** A file handed to the outbox: a Blob (a photo, a drawn signature), or bytes already read. */
export type NewFile = StoredFile | { field: string; fileName: string; blob: Blob };

type NewBody =
  | Exclude<OutboxBody, { type: "multipart" }>
  | { type: "multipart"; fields: Record<string, string>; files: NewFile[] };

/** A write as a screen hands it over; its files become bytes before it is stored (storableWrite). */
export type NewWrite = {
  kind: OutboxKind;
  request: Omit<OutboxRequest, "body"> & { body: NewBody };
  label: string;
  dependsOn?: string[];
  draftKey?: string;
  instrument?: OutboxItem["instrument"];
  consent?: OutboxItem["consent"];
};

/** A write whose files are bytes: what an outbox item holds. */
export type StorableWrite = Omit<NewWrite, "request"> & { request: OutboxRequest };

/** Reads each Blob of a write into bytes, so that every engine's IndexedDB can store it. */
export async function storableWrite(write: NewWrite): Promise<StorableWrite> {
  const { body } = write.request;
  if (body.type !== "multipart") return { ...write, request: { ...write.request, body } };
  const files = await Promise.all(
    body.files.map(async (file): Promise<StoredFile> => {
      if (!("blob" in file)) return file;
      return {
        field: file.field,
        fileName: file.fileName,
        type: file.blob.type,
        bytes: await file.blob.arrayBuffer(),
      };
    }),
  );
  return { ...write, request: { ...write.request, body: { ...body, files } } };
}

function sizeOf(body: OutboxBody) {
  if (body.type === "empty") return 0;
  if (body.type === "json") return new Blob([JSON.stringify(body.value)]).size;
  return body.files.reduce((total, file) => total + file.bytes.byteLength, 0);
}

export function makeOutboxItem(
  write: StorableWrite,
  context: WriteContext,
  now = Date.now(),
  session?: OutboxItem["session"],
): OutboxItem {
  return {
    id: crypto.randomUUID(),
    kind: write.kind,
    request: write.request,
    ...context,
    label: write.label,
    sizeBytes: sizeOf(write.request.body),
    createdAt: now,
    attempts: 0,
    state: "pending",
    nextAttemptAt: 0,
    dependsOn: write.dependsOn ?? [],
    draftKey: write.draftKey,
    ...(write.instrument ? { instrument: write.instrument } : {}),
    ...(write.consent ? { consent: write.consent } : {}),
    ...(session ? { session } : {}),
  };
}

type FlushRequester = () => void;
let requestFlush: FlushRequester = () => {};

/** The flusher registers itself here, so that enqueueing does not import the scheduler. */
export function setFlushRequester(requester: FlushRequester) {
  requestFlush = requester;
}

/** Asks the registered flusher for a flush (after storing an item without enqueueWrite). */
export function requestOutboxFlush() {
  requestFlush();
}

/**
 * Items for a participant enrolled offline (a provisional id): with the server's id when their
 * enrolment has been delivered meanwhile, else waiting for that enrolment. A provisional id no
 * enrolment of this device names is refused: such an item could never be sent.
 */
export async function bindToParticipant(items: OutboxItem[]): Promise<OutboxItem[]> {
  const provisionalId = items[0]?.participantId;
  if (!isProvisionalParticipantId(provisionalId)) return items;
  const enrolled = await indexedDbParticipantIds.get(provisionalId);
  if (enrolled) return items.map((item) => withEnrolledParticipant(item, enrolled.participantId));
  const enrolment = (await listItems()).find(
    (item) => item.kind === "enrolment" && item.participantId === provisionalId,
  );
  if (!enrolment) throw new Error(`No enrolment on this device names participant ${provisionalId}.`);
  // After the enrolment in the participant's lane, even when made in the same millisecond.
  const shift = Math.max(0, enrolment.createdAt + 1 - Math.min(...items.map((item) => item.createdAt)));
  return items.map((item) => ({
    ...item,
    createdAt: item.createdAt + shift,
    dependsOn: [enrolment.id, ...item.dependsOn],
  }));
}

export async function enqueueWrite(write: NewWrite, context: WriteContext): Promise<OutboxItem> {
  const [item] = await bindToParticipant([makeOutboxItem(await storableWrite(write), context)]);
  await putItem(item!);
  requestFlush();
  return item!;
}

/**
 * A participant added at a site: queued under a new provisional id (provisional-participants.ts),
 * which the pages use for them until the server has enrolled them. `write` is the enrolment call
 * with the participant's client_id (src/api/enrolment-api.ts).
 */
export async function enqueueEnrolment(
  write: StorableWrite,
  context: Omit<WriteContext, "participantId">,
): Promise<OutboxItem> {
  const taken = new Set((await listItems()).flatMap((item) => item.participantId ?? []));
  const participantId = newProvisionalParticipantId(taken);
  const item = makeOutboxItem({ ...write, kind: "enrolment" }, { ...context, participantId });
  await putItem(item);
  requestFlush();
  return item;
}

/**
 * A refused enrolment corrected (e.g. another subject id): a new item replaces it, since the
 * server keeps an Idempotency-Key to one request, and the writes waiting for the old one wait for
 * the new one. Same provisional id, same client_id, same place in the queue.
 */
export async function reviseEnrolment(refused: OutboxItem, body: unknown): Promise<OutboxItem> {
  if (refused.kind !== "enrolment") throw new Error("Only an enrolment is revised this way.");
  const { lastError: _refusal, ...kept } = refused;
  const revised: OutboxItem = {
    ...kept,
    id: crypto.randomUUID(),
    request: { ...refused.request, body: { type: "json", value: body } },
    sizeBytes: new Blob([JSON.stringify(body)]).size,
    attempts: 0,
    state: "pending",
    nextAttemptAt: 0,
  };
  await replaceItem(refused, revised);
  return revised;
}

/**
 * A refused item corrected: the revision is stored under a new id (the server keeps an
 * Idempotency-Key to one request), what waited for the refused one waits for it, the refused one
 * goes, and a flush is asked for.
 */
export async function replaceItem(refused: OutboxItem, revised: OutboxItem) {
  await putItem(revised);
  for (const item of await listItems()) {
    if (!item.dependsOn.includes(refused.id)) continue;
    await updateItem(item.id, (current) => ({
      ...current,
      dependsOn: current.dependsOn.map((id) => (id === refused.id ? revised.id : id)),
    }));
  }
  await removeItem(refused.id);
  requestFlush();
}

/**
 * A submission and its files: the uploads first, then the submission, which waits for them.
 * Returns the submission item.
 */
export async function enqueueSubmissionWithUploads(
  uploads: NewWrite[],
  submission: NewWrite,
  context: WriteContext,
): Promise<OutboxItem> {
  const storable = await Promise.all(uploads.map(storableWrite));
  const uploadItems = storable.map((upload) => makeOutboxItem(upload, context));
  const unbound = makeOutboxItem(
    { ...(await storableWrite(submission)), dependsOn: uploadItems.map((upload) => upload.id) },
    context,
    Date.now() + uploadItems.length,
  );
  const bound = await bindToParticipant([...uploadItems, unbound]);
  uploadItems.splice(0, uploadItems.length, ...bound.slice(0, -1));
  const submissionItem = bound.at(-1)!;
  const stored: string[] = [];
  try {
    // Ordered by creation time: the uploads come before the submission.
    for (const [index, upload] of uploadItems.entries()) {
      upload.createdAt += index;
      await putItem(upload);
      stored.push(upload.id);
    }
    await putItem(submissionItem);
  } catch (error) {
    // Half a submission is none: photos without their submission would be sent for nothing.
    await Promise.allSettled(stored.map((id) => removeItem(id)));
    throw error;
  }
  requestFlush();
  return submissionItem;
}

/** The events call as an outbox write (spec 02 section 7). */
export function eventsWrite(events: unknown[], label: string): StorableWrite {
  return {
    kind: "event",
    label,
    request: {
      method: "POST",
      path: postEventsCall.path,
      query: { platform: PLATFORM },
      body: { type: "json", value: events },
    },
  };
}

type UploadFields = {
  file_name: string;
  module_name: FileUploadFields["module_name"];
  participant_id: number;
};

/** The file upload call as an outbox write (multipart, header version 009): a Blob, or its bytes. */
export function uploadWrite(file: Pick<StoredFile, "bytes" | "type">, fields: UploadFields): StorableWrite;
export function uploadWrite(file: Blob, fields: UploadFields): NewWrite;
export function uploadWrite(file: Blob | Pick<StoredFile, "bytes" | "type">, fields: UploadFields): NewWrite {
  const part = { field: "upload_file", fileName: fields.file_name };
  return {
    kind: "upload",
    label: fields.file_name,
    request: {
      method: "POST",
      path: uploadFileCall.path,
      headers: { version: uploadFileCall.headerVersion },
      body: {
        type: "multipart",
        fields: {
          file_name: fields.file_name,
          platform: PLATFORM,
          module_name: fields.module_name,
          participant_id: String(fields.participant_id),
        },
        files: [file instanceof Blob ? { ...part, blob: file } : { ...part, ...file }],
      },
    },
  };
}
