/**
 * Opening an unread announcement sends its read event (spec 02 section 2): the real inbox page
 * queues it in the outbox (fake IndexedDB) and the drain sends it to the events call; the
 * server's fetch is stubbed.
 */
import "fake-indexeddb/auto";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Announcement } from "../../../core/contracts/announcements.ts";
import { announcementKeys } from "../../api/announcements-api.ts";
import { i18n } from "../../i18n/i18n.ts";
import { requestFlush } from "../../outbox/flusher.ts";
import { listItems } from "../../outbox/outbox-store.ts";
import {
  endWithEmptyOutbox,
  queuedEvents,
  startWithEmptyOutbox,
  stubEventsServer,
} from "../../outbox/fake-events-server.ts";
import { useOutboxChanges } from "../../outbox-ui/use-outbox.ts";
import { InboxPage } from "./inbox-page.tsx";

const USER_ID = 7;

vi.mock("@tanstack/react-router", () => ({
  Link: ({ children, className }: { children: ReactNode; className?: string }) => (
    <a href="#inbox-new" className={className}>
      {children}
    </a>
  ),
}));

vi.mock("../../auth/use-stored-user.ts", () => ({
  useStoredUser: () => ({
    id: 7,
    username: "clinician@example.org",
    permissions: {},
    onboarding: { announcements: true, activities: true },
  }),
}));

function announcement(overrides: Partial<Announcement>): Announcement {
  return {
    id: 1,
    sent: "2026-11-20T09:00:00.000Z",
    read: false,
    title: "Visit window",
    content: "<p>Visits move to Tuesdays.</p>",
    sender: "Ana Ruiz",
    study_id: 101,
    study_name: "MDD",
    site_id: null,
    site_label: null,
    ...overrides,
  };
}

function Harness() {
  useOutboxChanges();
  return <InboxPage />;
}

function renderInbox(announcements: Announcement[]) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  queryClient.setQueryData(announcementKeys.list(), { announcements });
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <Harness />
      </QueryClientProvider>
    </I18nProvider>,
  );
}

function toggle(title: string) {
  return screen.getByRole("button", { name: new RegExp(title) });
}

beforeEach(async () => {
  i18n.activate("en");
  await startWithEmptyOutbox(USER_ID);
});

afterEach(async () => {
  cleanup();
  await endWithEmptyOutbox(USER_ID);
});

describe("the inbox's read event", () => {
  it("is sent once, naming the announcement and its study, when an unread one is opened", async () => {
    const server = stubEventsServer();
    renderInbox([announcement({ id: 5, title: "Visit window" })]);
    expect(await queuedEvents()).toEqual([]);
    fireEvent.click(toggle("Visit window"));
    const expected = {
      type: "read",
      timestamp: expect.any(String) as unknown,
      info: { announcement_id: 5, study_id: 101 },
      study_id: 101,
    };
    await waitFor(async () => expect(await queuedEvents()).toEqual([expected]));
    const item = (await listItems())[0];
    expect(item).toMatchObject({ userId: USER_ID, studyId: 101, kind: "event" });

    // Closed and opened again: it is read now, so no second event.
    fireEvent.click(toggle("Visit window"));
    fireEvent.click(toggle("Visit window"));
    await act(async () => {
      await requestFlush();
    });
    expect(server.events()).toEqual([expected]);
    expect(await queuedEvents()).toEqual([]);
  });

  it("is not sent for an announcement already read", async () => {
    const server = stubEventsServer();
    renderInbox([announcement({ id: 6, title: "Holiday closure", read: true })]);
    fireEvent.click(toggle("Holiday closure"));
    expect(screen.getByText("Visits move to Tuesdays.")).toBeTruthy();
    await act(async () => {
      await requestFlush();
    });
    expect(await queuedEvents()).toEqual([]);
    expect(server.events()).toEqual([]);
  });
});
