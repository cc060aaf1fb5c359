/**
 * A study of the newer instrument architecture: the inbox lists its
 * ANNOUNCEMENT instruments instead of the announcements list, and opening an unread one queues a
 * read event naming the instrument and no participant, which the outbox sends to the events call.
 */
import "fake-indexeddb/auto";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AnnouncementInstrument } from "../../../core/contracts/announcements.ts";
import { announcementKeys } from "../../api/announcements-api.ts";
import { studyKeys } from "../../api/studies-api.ts";
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

const USER_ID = 8;
const STUDY_ID = 102;

vi.mock("@tanstack/react-router", () => ({
  Link: ({ children, className }: { children: ReactNode; className?: string }) => (
    <a href="#inbox-new" className={className}>
      {children}
    </a>
  ),
}));

vi.mock("../../auth/use-stored-user.ts", () => ({
  useStoredUser: () => ({
    id: 8,
    username: "rater@example.org",
    permissions: {
      "102": {
        study_id: 102,
        study_name: "SCZ-214 Negative Symptoms",
        role: "11",
        scope: [],
        sms_enabled: false,
        consent_2: false,
        sites: [{ site_id: 1021, site_label: "North Clinic" }],
      },
    },
    onboarding: { announcements: true, activities: true },
  }),
}));

function instrumentAnnouncement(overrides: Partial<AnnouncementInstrument>): AnnouncementInstrument {
  return {
    instrument_id: 40,
    sent: "2026-11-20T09:00:00.000Z",
    read: false,
    title: "Visit schedule update",
    content: "<p>Visits start at 8:30.</p>",
    study_id: STUDY_ID,
    study_name: "SCZ-214 Negative Symptoms",
    ...overrides,
  };
}

function Harness() {
  useOutboxChanges();
  return <InboxPage selectedStudyId={STUDY_ID} />;
}

function renderInbox(items: AnnouncementInstrument[]) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  queryClient.setQueryData(studyKeys.detail(STUDY_ID), {
    id: STUDY_ID,
    name: "SCZ-214 Negative Symptoms",
    config: { instrument_architecture_version: 2 },
  });
  queryClient.setQueryData(announcementKeys.instruments(STUDY_ID), { announcements: items });
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <Harness />
      </QueryClientProvider>
    </I18nProvider>,
  );
}

beforeEach(async () => {
  i18n.activate("en");
  await startWithEmptyOutbox(USER_ID);
});

afterEach(async () => {
  cleanup();
  await endWithEmptyOutbox(USER_ID);
});

describe("the announcements of a study of the newer architecture", () => {
  it("are its announcement instruments, listed with the unread dot, and the list call is not made", async () => {
    const { reads } = stubEventsServer();
    renderInbox([
      instrumentAnnouncement({ instrument_id: 41, title: "Pharmacy hours", read: true }),
      instrumentAnnouncement({ instrument_id: 40 }),
    ]);
    const list = screen.getByRole("list", { name: "Announcements" });
    expect(list.querySelectorAll("li")).toHaveLength(2);
    expect(screen.getAllByTestId("unread-dot")).toHaveLength(1);
    expect(screen.getByText(/These are the announcements of SCZ-214 Negative Symptoms/)).toBeTruthy();
    // The study team sent it, to every site.
    expect(screen.getByRole("button", { name: /Visit schedule update/ }).textContent).toContain("Study team");
    expect(reads).not.toContain("/control/participants/me/announcements");
  });

  it("opening an unread one shows its text and sends one read event naming the instrument", async () => {
    const server = stubEventsServer();
    renderInbox([instrumentAnnouncement({ instrument_id: 40 })]);
    const toggle = screen.getByRole("button", { name: /Visit schedule update/ });
    fireEvent.click(toggle);
    expect(screen.getByText("Visits start at 8:30.")).toBeTruthy();
    await waitFor(() => expect(screen.queryAllByTestId("unread-dot")).toHaveLength(0));
    const expected = {
      type: "read",
      timestamp: expect.any(String) as unknown,
      info: { instrument_id: 40, study_id: STUDY_ID },
      study_id: STUDY_ID,
    };
    await waitFor(async () => expect(await queuedEvents()).toEqual([expected]));
    expect((await listItems())[0]).toMatchObject({ userId: USER_ID, studyId: STUDY_ID, kind: "event" });
    expect((await listItems())[0]?.participantId).toBeUndefined();

    // Read now: closing and opening again sends nothing more.
    fireEvent.click(toggle);
    fireEvent.click(toggle);
    await act(async () => {
      await requestFlush();
    });
    expect(server.events()).toEqual([expected]);
    expect(await queuedEvents()).toEqual([]);
  });

  it("shows the empty state when the study has none", () => {
    stubEventsServer();
    renderInbox([]);
    expect(screen.getByText("You're all caught up")).toBeTruthy();
  });
});
