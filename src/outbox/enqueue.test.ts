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

const { enqueueSubmissionWithUploads, enqueueWrite, eventsWrite, setFlushRequester, uploadWrite } =
  await import("./enqueue.ts");
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
