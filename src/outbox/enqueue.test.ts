import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { OutboxItem } from "./outbox-item.ts";
import type * as OutboxStore from "./outbox-store.ts";

// A store that refuses writes on demand, as a full disk or WebKit's private storage does.
const refusal = vi.hoisted(() => ({ afterPuts: Number.POSITIVE_INFINITY, puts: 0 }));
vi.mock("./outbox-store.ts", async (importOriginal) => {
  const real = await importOriginal<typeof OutboxStore>();
  return {
    ...real,
    putItem: async (item: OutboxItem) => {
      refusal.puts += 1;
      if (refusal.puts > refusal.afterPuts) {
        throw new DOMException("Error preparing Blob/File data to be stored in object store", "UnknownError");
      }
      await real.putItem(item);
    },
  };
});

const {
  enqueueEnrolment,
  enqueueSubmissionWithUploads,
  enqueueWrite,
  eventsWrite,
  reviseEnrolment,
  setFlushRequester,
  uploadWrite,
} = await import("./enqueue.ts");
const { indexedDbParticipantIds } = await import("./participant-id-store.ts");
const { listItems, removeItem } = await import("./outbox-store.ts");

const context = { userId: 7, username: "c@demo.test", participantId: 3 };
const photo = (name: string) =>
  uploadWrite(new Blob([`bytes of ${name}`], { type: "image/jpeg" }), {
    file_name: name,
    module_name: "clinro",
    participant_id: 3,
  });
const submission = eventsWrite([{ answers: [] }], "HAM-D 17 submission");

beforeEach(async () => {
  refusal.afterPuts = Number.POSITIVE_INFINITY;
  refusal.puts = 0;
  for (const item of await listItems()) await removeItem(item.id);
});

describe("enqueueing into a store that refuses", () => {
  it("stores a photo's Blob as its bytes and type", async () => {
    const item = await enqueueSubmissionWithUploads([photo("a.jpeg")], submission, context);
    const [upload] = (await listItems()).filter((stored) => stored.id !== item.id);
    expect(upload!.request.body).toMatchObject({
      type: "multipart",
      files: [{ field: "upload_file", fileName: "a.jpeg", type: "image/jpeg" }],
    });
    const body = upload!.request.body;
    expect(body.type === "multipart" && new TextDecoder().decode(body.files[0]!.bytes)).toBe(
      "bytes of a.jpeg",
    );
    expect(upload!.sizeBytes).toBe("bytes of a.jpeg".length);
  });

  it("rejects with the store's error and leaves no part of a submission behind", async () => {
    const flush = vi.fn();
    setFlushRequester(flush);
    refusal.afterPuts = 1;
    await expect(
      enqueueSubmissionWithUploads([photo("a.jpeg"), photo("b.jpeg")], submission, context),
    ).rejects.toMatchObject({ name: "UnknownError" });
    expect(await listItems()).toEqual([]);
    expect(flush).not.toHaveBeenCalled();
  });

  it("rejects a single write the store refuses: the caller is told", async () => {
    refusal.afterPuts = 0;
    await expect(enqueueWrite(eventsWrite([{ type: "seen" }], "seen"), context)).rejects.toThrow(/Blob/);
    expect(await listItems()).toEqual([]);
  });
});

describe("enqueueing for a participant enrolled offline", () => {
  const enrolmentWrite = (subjectId: string) => ({
    kind: "enrolment" as const,
    label: subjectId,
    request: {
      method: "POST" as const,
      path: "/control/studies/1/sites/2/participants",
      body: { type: "json" as const, value: { subject_id: subjectId, client_id: crypto.randomUUID() } },
    },
  });
  const clinician = { userId: 7, username: "c@demo.test", studyId: 1, siteId: 2 };

  it("queues the enrolment under a new provisional id, and later writes wait for it", async () => {
    const enrolment = await enqueueEnrolment(enrolmentWrite("S-1"), clinician);
    expect(enrolment.participantId).toBeLessThan(0);
    const at = { ...clinician, participantId: enrolment.participantId };
    const queued = await enqueueSubmissionWithUploads([photo("a.jpeg")], submission, at);
    const event = await enqueueWrite(eventsWrite([{ type: "seen" }], "seen"), at);
    const [upload] = (await listItems()).filter((item) => item.kind === "upload");
    expect(queued.dependsOn).toContain(enrolment.id);
    expect(upload!.dependsOn).toEqual([enrolment.id]);
    expect(event.dependsOn).toEqual([enrolment.id]);
  });

  it("gives a write the server's id once the enrolment has been delivered", async () => {
    await indexedDbParticipantIds.set(-99, { participantId: 41, clientId: "x" });
    const item = await enqueueWrite(
      uploadWrite(
        { bytes: new ArrayBuffer(1), type: "image/png" },
        {
          file_name: "p.png",
          module_name: "clinro",
          participant_id: -99,
        },
      ),
      { ...clinician, participantId: -99 },
    );
    expect(item.participantId).toBe(41);
    expect(item.request.body).toMatchObject({ fields: { participant_id: "41" } });
    expect(item.dependsOn).toEqual([]);
  });

  it("refuses a write for a provisional participant no enrolment names", async () => {
    await expect(
      enqueueWrite(eventsWrite([{ type: "seen" }], "seen"), { ...clinician, participantId: -12345 }),
    ).rejects.toThrow(/No enrolment/);
    expect(await listItems()).toEqual([]);
  });

  it("revises a refused enrolment as a new item the waiting writes now wait for", async () => {
    const refused = await enqueueEnrolment(enrolmentWrite("TAKEN"), clinician);
    const waiting = await enqueueWrite(eventsWrite([{ type: "seen" }], "seen"), {
      ...clinician,
      participantId: refused.participantId,
    });
    const body = { ...(refused.request.body as { value: object }).value, subject_id: "FREE" };
    const revised = await reviseEnrolment({ ...refused, state: "failed" }, body);
    const items = await listItems();
    expect(items.map((item) => item.id)).toEqual([revised.id, waiting.id]);
    expect(revised).toMatchObject({ participantId: refused.participantId, state: "pending", attempts: 0 });
    expect(revised.id).not.toBe(refused.id);
    expect(items[1]!.dependsOn).toEqual([revised.id]);
  });
});
