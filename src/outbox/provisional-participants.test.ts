import { describe, expect, it } from "vitest";
import type { OutboxItem } from "./outbox-item.ts";
import {
  enrolledParticipantOf,
  isProvisionalParticipantId,
  newProvisionalParticipantId,
  withEnrolledParticipant,
} from "./provisional-participants.ts";

const FROM = -1234567890;
const TO = 42;
const base = {
  id: "i",
  userId: 1,
  username: "c@demo.test",
  label: "x",
  sizeBytes: 0,
  createdAt: 0,
  attempts: 0,
  state: "pending",
  nextAttemptAt: 0,
  dependsOn: [],
  participantId: FROM,
} satisfies Partial<OutboxItem>;

describe("provisional participant ids", () => {
  it("are negative ids in the range of a server id, never one already taken", () => {
    const taken = new Set([-1]);
    let draws = [0, 0.5];
    const random = () => draws.shift() ?? 0.75;
    expect(newProvisionalParticipantId(taken, random)).toBeLessThan(-1);
    draws = [];
    const id = newProvisionalParticipantId();
    expect(isProvisionalParticipantId(id)).toBe(true);
    expect(isProvisionalParticipantId(5)).toBe(false);
    expect(isProvisionalParticipantId(-(2 ** 31))).toBe(false);
  });

  it("are replaced in the path, the upload's fields and its file name", () => {
    const photo = `101_${FROM}_7_photos_stamp-1.jpeg`;
    const item: OutboxItem = {
      ...base,
      kind: "upload",
      request: {
        method: "POST",
        path: "/control/file/upload",
        body: {
          type: "multipart",
          fields: { file_name: photo, participant_id: String(FROM), platform: "clinro" },
          files: [{ field: "upload_file", fileName: photo, type: "image/jpeg", bytes: new ArrayBuffer(1) }],
        },
      },
    };
    const resolved = withEnrolledParticipant(item, TO);
    expect(resolved.participantId).toBe(TO);
    expect(resolved.request.body).toMatchObject({
      fields: { file_name: `101_${TO}_7_photos_stamp-1.jpeg`, participant_id: "42", platform: "clinro" },
      files: [{ fileName: `101_${TO}_7_photos_stamp-1.jpeg` }],
    });
  });

  it("are replaced in a submission's path, its photo names and an event's participant, and nowhere else", () => {
    const item: OutboxItem = {
      ...base,
      kind: "submission",
      request: {
        method: "POST",
        path: `/control/clinro/participant/${FROM}/instruments/7/submission`,
        body: {
          type: "json",
          value: [
            {
              attachments: [`101_${FROM}_7_photos_s.jpeg`],
              answers: [
                { answer: [{ value: `101_${FROM}_7_photos_s.jpeg` }, { value: FROM, label: String(FROM) }] },
              ],
              participant: FROM,
            },
          ],
        },
      },
    };
    const resolved = withEnrolledParticipant(item, TO);
    expect(resolved.request.path).toBe(`/control/clinro/participant/${TO}/instruments/7/submission`);
    expect(resolved.request.body).toEqual({
      type: "json",
      value: [
        {
          attachments: [`101_${TO}_7_photos_s.jpeg`],
          // A number answered as a number stays: only a key naming a participant is rewritten.
          answers: [{ answer: [{ value: `101_${TO}_7_photos_s.jpeg` }, { value: FROM, label: "42" }] }],
          participant: TO,
        },
      ],
    });
  });

  it("leave an item of a known participant as it is", () => {
    const item: OutboxItem = {
      ...base,
      participantId: 9,
      kind: "event",
      request: { method: "POST", path: "/e", body: { type: "json", value: [] } },
    };
    expect(withEnrolledParticipant(item, TO)).toBe(item);
  });

  it("are resolved only by an answer naming the client id that was sent", () => {
    const clientId = "6f1b6c4e-2a1c-4b8e-9d7e-1f2a3b4c5d6e";
    expect(enrolledParticipantOf({ id: 8, client_id: clientId }, clientId)).toEqual({
      participantId: 8,
      clientId,
    });
    expect(enrolledParticipantOf({ id: 8, client_id: "another" }, clientId)).toBeUndefined();
    expect(enrolledParticipantOf({ id: "8", client_id: clientId }, clientId)).toBeUndefined();
    expect(enrolledParticipantOf(undefined, clientId)).toBeUndefined();
  });
});
