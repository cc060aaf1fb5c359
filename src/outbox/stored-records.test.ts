import "fake-indexeddb/auto";
import { createStore, get, keys, set } from "idb-keyval";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { claimDraft, listUnreadableDrafts, loadDraft, saveDraft } from "./drafts.ts";
import { drainOutbox } from "./drain.ts";
import { eventsWrite, makeOutboxItem, uploadWrite } from "./enqueue.ts";
import type { OutboxItem } from "./outbox-item.ts";
import {
  getItem,
  indexedDbOutboxStore,
  listItems,
  listUnreadableItems,
  putItem,
  removeItem,
  updateItem,
} from "./outbox-store.ts";
import {
  isArrayBuffer,
  OUTBOX_SCHEMA_VERSION,
  readOutboxRecord,
  upgradeOutboxRecord,
} from "./stored-records.ts";
import { revocationItem } from "./session-revocation.ts";

// The same databases the stores open: tests write records as an older app version left them.
const rawOutbox = createStore("clinro-outbox", "items");
const rawDrafts = createStore("clinro-drafts", "drafts");
const NOW = Date.UTC(2026, 10, 22, 9, 0, 0);
const context = { userId: 7, username: "c@demo.test", participantId: 3 };

/** An item exactly as the app stored it before records were versioned (no schemaVersion). */
function previousShape(label: string): OutboxItem {
  const item = makeOutboxItem(eventsWrite([{ type: "seen" }], label), context, NOW - 1000);
  expect(item).not.toHaveProperty("schemaVersion");
  return item;
}

beforeEach(async () => {
  for (const key of await keys(rawOutbox)) await removeItem(String(key));
});

describe("outbox records across app versions", () => {
  it("stores each item with its schema version", async () => {
    const item = makeOutboxItem(eventsWrite([], "now"), context, NOW);
    await putItem(item);
    expect(await get(item.id, rawOutbox)).toMatchObject({
      id: item.id,
      schemaVersion: OUTBOX_SCHEMA_VERSION,
    });
    expect(await getItem(item.id)).toEqual(item);
  });

  it("reads a version 2 item (before offline enrolment) as it is", async () => {
    const item = makeOutboxItem(eventsWrite([], "v2"), context, NOW);
    const read = readOutboxRecord({ ...item, schemaVersion: 2 });
    expect(read).toEqual({ ok: true, value: item, migratedFrom: 2 });
  });

  it("reads an enrolment for a provisional participant, which version 2 did not know", async () => {
    const enrolment = makeOutboxItem(
      {
        kind: "enrolment",
        label: "S-1",
        request: {
          method: "POST",
          path: "/control/studies/1/sites/2/participants",
          body: { type: "json", value: {} },
        },
      },
      { ...context, participantId: -5 },
      NOW,
    );
    expect(readOutboxRecord({ ...enrolment, schemaVersion: OUTBOX_SCHEMA_VERSION })).toEqual({
      ok: true,
      value: enrolment,
    });
    expect(readOutboxRecord({ ...enrolment, schemaVersion: 2 }).ok).toBe(false);
  });

  it("reads a version 3 item (before queued sign-outs) as it is", async () => {
    const item = makeOutboxItem(eventsWrite([], "v3"), context, NOW);
    expect(readOutboxRecord({ ...item, schemaVersion: 3 })).toEqual({
      ok: true,
      value: item,
      migratedFrom: 3,
    });
  });

  it("keeps the consent a signing completes, which version 4 did not know, and reads a version 4 item as it is", async () => {
    const signing = makeOutboxItem(
      { ...eventsWrite([], "consent"), kind: "consent", consent: { id: 3, completes: true } },
      { ...context, participantId: 7 },
      NOW,
    );
    await putItem(signing);
    expect(await getItem(signing.id)).toEqual(signing);
    const { consent: _consent, ...earlier } = signing;
    expect(readOutboxRecord({ ...earlier, schemaVersion: 4 })).toEqual({
      ok: true,
      value: earlier,
      migratedFrom: 4,
    });
  });

  it("keeps a queued sign-out with the token it ends and its empty body, which version 3 did not know", async () => {
    const revocation = revocationItem(
      { userId: 7, username: "c@demo.test", token: "t.o.k", exp: 1_900_000_000 },
      NOW,
    );
    await putItem(revocation);
    expect(await getItem(revocation.id)).toEqual(revocation);
    expect(revocation).toMatchObject({
      session: { token: "t.o.k", exp: 1_900_000_000 },
      request: { body: { type: "empty" } },
    });
    expect(readOutboxRecord({ ...revocation, schemaVersion: 3 }).ok).toBe(false);
  });

  it("drains an item written in the previous (unversioned) shape", async () => {
    const old = previousShape("from before the update");
    await set(old.id, old, rawOutbox);
    expect((await listItems()).map((item) => item.id)).toEqual([old.id]);
    const send = vi.fn(async (_item: OutboxItem, _token: string) => ({
      kind: "answered" as const,
      status: 201,
      message: "Created",
      body: {},
    }));
    const report = await drainOutbox({
      store: indexedDbOutboxStore,
      tokens: { get: async () => ({ token: "t", exp: NOW / 1000 + 3600 }), markRejected: async () => {} },
      send,
      now: () => NOW,
    });
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]![0]).toEqual(old);
    expect(report.delivered).toEqual([old.id]);
    expect(await get(old.id, rawOutbox)).toBeUndefined();
  });

  it("writes an older item back in the current shape when it changes", async () => {
    const old = previousShape("retried");
    await set(old.id, old, rawOutbox);
    await updateItem(old.id, (item) => ({ ...item, attempts: 2 }));
    expect(await get(old.id, rawOutbox)).toMatchObject({ attempts: 2, schemaVersion: OUTBOX_SCHEMA_VERSION });
  });

  it("keeps a record it cannot read: never sent, never dropped, listed for the review page", async () => {
    const damaged = { ...previousShape("damaged"), request: "not a request" };
    const newer = { ...previousShape("from a newer app"), schemaVersion: OUTBOX_SCHEMA_VERSION + 1 };
    await set(damaged.id, damaged, rawOutbox);
    await set(newer.id, newer, rawOutbox);
    expect(await listItems()).toEqual([]);
    expect(await getItem(damaged.id)).toBeUndefined();
    // A change (a drain's bookkeeping) leaves it exactly as it was.
    await updateItem(damaged.id, (item) => ({ ...item, attempts: 9 }));
    expect(await get(damaged.id, rawOutbox)).toEqual(damaged);

    const unreadable = await listUnreadableItems();
    expect(unreadable.map((record) => record.key).sort()).toEqual([damaged.id, newer.id].sort());
    expect(unreadable.find((record) => record.key === damaged.id)).toMatchObject({
      store: "outbox",
      problem: expect.stringContaining("request") as unknown,
      record: damaged,
    });
    expect(unreadable.find((record) => record.key === newer.id)?.problem).toContain("newer version");
  });

  const upload = (bytes = "x") =>
    makeOutboxItem(
      uploadWrite(
        { bytes: new TextEncoder().encode(bytes).buffer, type: "image/jpeg" },
        { file_name: "p.jpeg", module_name: "clinro", participant_id: 1 },
      ),
      context,
      NOW,
    );
  const filesOf = (record: OutboxItem) =>
    record.request.body.type === "multipart" ? record.request.body.files : [];

  it("keeps an upload's file as bytes and type, never a Blob, and refuses a file that is not bytes", async () => {
    const item = upload();
    await putItem(item);
    const raw = (await get(item.id, rawOutbox)) as OutboxItem;
    const [file] = filesOf(raw);
    expect(file).toMatchObject({ field: "upload_file", fileName: "p.jpeg", type: "image/jpeg" });
    expect(isArrayBuffer(file!.bytes)).toBe(true);
    expect(JSON.stringify(raw)).not.toMatch(/Blob/);
    expect(readOutboxRecord(raw).ok).toBe(true);
    const broken = {
      ...raw,
      request: { ...raw.request, body: { ...raw.request.body, files: [{ ...file, bytes: "x" }] } },
    };
    expect(readOutboxRecord(broken).ok).toBe(false);
  });

  it("reads a version 1 upload's Blob into bytes, as the current version", async () => {
    const item = upload("photo bytes");
    const [file] = filesOf(item);
    const blob = new Blob([file!.bytes], { type: "image/jpeg" });
    const older = {
      ...item,
      schemaVersion: 1,
      request: {
        ...item.request,
        body: { ...item.request.body, files: [{ field: "upload_file", blob, fileName: "p.jpeg" }] },
      },
    };
    // Not readable as it is (a Blob takes a promise to read): the store upgrades it first.
    expect(readOutboxRecord(older).ok).toBe(false);
    const upgraded = await upgradeOutboxRecord(older);
    expect(upgraded).toMatchObject({ id: item.id, schemaVersion: OUTBOX_SCHEMA_VERSION, attempts: 0 });
    const read = readOutboxRecord(upgraded);
    expect(read.ok).toBe(true);
    const [converted] = filesOf(read.ok ? read.value : item);
    expect(new TextDecoder().decode(converted!.bytes)).toBe("photo bytes");
    expect(converted).toMatchObject({ field: "upload_file", fileName: "p.jpeg", type: "image/jpeg" });
    // Items without files need no upgrade: they are read as they are.
    expect(await upgradeOutboxRecord(previousShape("events"))).toBeUndefined();
    expect(readOutboxRecord(previousShape("events")).ok).toBe(true);
  });

  it("an update of an item delivered meanwhile leaves no record behind", async () => {
    const item = upload();
    await putItem(item);
    await removeItem(item.id);
    await updateItem(item.id, (current) => ({ ...current, attempts: 9 }));
    expect(await keys(rawOutbox)).toEqual([]);
  });
});

describe("drafts across app versions", () => {
  it("resumes a draft saved in the previous (unversioned) shape", async () => {
    await set(
      "7:101:3:old",
      { key: "7:101:3:old", userId: 7, savedAt: 5, value: { answers: { q1: 1 } } },
      rawDrafts,
    );
    expect(await loadDraft("7:101:3:old")).toEqual({
      key: "7:101:3:old",
      userId: 7,
      savedAt: 5,
      value: { answers: { q1: 1 } },
    });
  });

  it("stores each draft with its schema version", async () => {
    await saveDraft("7:101:3:new", 7, { answers: {} }, 9);
    expect(await get("7:101:3:new", rawDrafts)).toMatchObject({ schemaVersion: 1, savedAt: 9 });
  });

  it("moves a draft it cannot read aside, so that the next save does not overwrite it", async () => {
    const ownership = await claimDraft("7:101:3:damaged");
    expect(ownership.owned).toBe(true);
    const damaged = { key: "7:101:3:damaged", userId: "seven", value: { answers: { q1: 2 } } };
    await set("7:101:3:damaged", damaged, rawDrafts);
    expect(await loadDraft("7:101:3:damaged")).toBeUndefined();
    await saveDraft("7:101:3:damaged", 7, { answers: {} });
    const unreadable = await listUnreadableDrafts();
    expect(unreadable).toHaveLength(1);
    expect(unreadable[0]).toMatchObject({ store: "drafts", record: damaged });
    expect(unreadable[0]!.problem).toContain("userId");
  });
});
