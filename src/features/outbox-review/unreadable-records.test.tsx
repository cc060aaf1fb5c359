import "fake-indexeddb/auto";
import { I18nProvider } from "@lingui/react";
import { cleanup, render, screen } from "@testing-library/react";
import { createStore, set } from "idb-keyval";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { activateLocale, i18n } from "../../i18n/i18n.ts";
import { expectVisible } from "../../survey/questions/question-harness.tsx";
import { UnreadableRecordsPanel } from "./unreadable-records-panel.tsx";
import { toPortableJson } from "../../outbox/portable-json.ts";
import { exportUnreadableRecords } from "./unreadable-records.ts";

afterEach(cleanup);
beforeAll(() => activateLocale("en"));

describe("records this version cannot read, on the review page", () => {
  it("are counted for everyone and exportable by their owner only", async () => {
    await set(
      "damaged-1",
      { id: "damaged-1", userId: 7, request: "broken" },
      createStore("clinro-outbox", "items"),
    );
    const view = (viewerId: number) =>
      render(
        <I18nProvider i18n={i18n}>
          <UnreadableRecordsPanel viewerId={viewerId} />
        </I18nProvider>,
      );
    view(7);
    expectVisible(await screen.findByRole("heading", { name: "Saved data this version cannot read" }));
    expectVisible(screen.getByText(/1 saved record on this device cannot be read/));
    expectVisible(screen.getByRole("button", { name: "Export my 1 record" }));
    cleanup();
    view(8);
    expectVisible(await screen.findByText("Only the user who made them can export them."));
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("export files as base64, so that a photo in a damaged record is not lost", async () => {
    const exported = (await toPortableJson({
      files: [{ blob: new Blob(["hi"], { type: "text/plain" }) }],
    })) as {
      files: { blob: unknown }[];
    };
    expect(exported.files[0]!.blob).toEqual({ blob: { type: "text/plain", sizeBytes: 2, base64: "aGk=" } });
    const file = await exportUnreadableRecords(
      [{ store: "drafts", key: "k", problem: "p", record: { a: 1 } }],
      new Date(0),
    );
    expect(file).toEqual({
      format: "clinro-unreadable-records",
      exportedAt: "1970-01-01T00:00:00.000Z",
      records: [{ store: "drafts", key: "k", problem: "p", record: { a: 1 } }],
    });
  });
});
