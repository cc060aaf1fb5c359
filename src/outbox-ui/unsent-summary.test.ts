import { describe, expect, it } from "vitest";
import { i18n } from "../i18n/i18n.ts";
import type { OutboxItem } from "../outbox/outbox-item.ts";
import { belongsToForm, summarizeUnsent, unsentList, unsentTotal } from "./unsent-summary.ts";

type Counted = Pick<OutboxItem, "id" | "kind" | "dependsOn">;
const item = (id: string, kind: OutboxItem["kind"], dependsOn: string[] = []): Counted => ({
  id,
  kind,
  dependsOn,
});

describe("what waits, counted as a coordinator counts it", () => {
  it("counts a consent with its two signatures as one form, not three items", () => {
    const items = [
      item("sig-1", "upload"),
      item("sig-2", "upload"),
      item("consent", "consent", ["sig-1", "sig-2"]),
    ];
    expect(summarizeUnsent(items)).toEqual({ forms: 1, participants: 0, files: 0, updates: 0 });
    expect(unsentTotal(summarizeUnsent(items))).toBe(1);
    expect(belongsToForm(items[0]!, items)).toBe(true);
    expect(belongsToForm(items[2]!, items)).toBe(false);
  });

  it("counts instruments as forms, enrolments as new participants, lone files as files, events as updates", () => {
    const items = [
      item("photo", "upload"),
      item("hamd", "submission", ["photo"]),
      item("cgis", "submission"),
      item("lone", "upload"),
      item("new", "enrolment"),
      item("seen", "event"),
      item("read", "event"),
    ];
    expect(summarizeUnsent(items)).toEqual({ forms: 2, participants: 1, files: 1, updates: 2 });
  });

  it("counts a file whose form already left as a file of its own", () => {
    expect(summarizeUnsent([item("photo", "upload")])).toEqual({
      forms: 0,
      participants: 0,
      files: 1,
      updates: 0,
    });
  });

  it("says it as one list in the reader's language, only what there is", () => {
    i18n.activate("en");
    expect(unsentList({ forms: 3, participants: 0, files: 0, updates: 0 }, i18n)).toBe("3 forms");
    expect(unsentList({ forms: 1, participants: 1, files: 0, updates: 2 }, i18n)).toBe(
      "1 form, 1 new participant, and 2 updates",
    );
    expect(unsentList({ forms: 2, participants: 0, files: 1, updates: 0 }, i18n)).toBe("2 forms and 1 file");
    expect(unsentList({ forms: 0, participants: 0, files: 0, updates: 0 }, i18n)).toBe("");
  });
});
