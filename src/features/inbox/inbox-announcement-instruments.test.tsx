/**
 * A study of the newer instrument architecture (issue 26, item 10): the inbox lists its
 * ANNOUNCEMENT instruments instead of the announcements list, and opening an unread one queues a
 * read event naming the instrument and no participant, which the outbox sends to the events call.
 */
import "fake-indexeddb/auto";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { postEventsCall } from "../../../core/contracts/calls/event-calls.ts";
import type { AnnouncementInstrument } from "../../../core/contracts/announcements.ts";
import { announcementKeys } from "../../api/announcements-api.ts";
import { studyKeys } from "../../api/studies-api.ts";
import { i18n } from "../../i18n/i18n.ts";
import { requestFlush } from "../../outbox/flusher.ts";
import { listItems, removeItem } from "../../outbox/outbox-store.ts";
import { removeSessionToken, saveSessionToken } from "../../outbox/session-tokens.ts";
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

type Sent = { path: string; body: unknown };

/** Records the outbox's requests and answers 200; any read the page makes gets a 404. */
function stubServer() {
  const sent: Sent[] = [];
  const reads: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), "http://localhost");
      if ((init.method ?? "GET") === "GET") {
        reads.push(url.pathname);
        return new Response(JSON.stringify({ message: "no" }), { status: 404 });
      }
      const body = typeof init.body === "string" ? (JSON.parse(init.body) as unknown) : init.body;
      sent.push({ path: url.pathname, body });
      return new Response(JSON.stringify({ message: "ok" }), { status: 200 });
    }),
  );
  return { sent, reads };
}

const sentEvents = (sent: Sent[]) =>
  sent
    .filter((request) => request.path === postEventsCall.path)
    .flatMap((request) => request.body as unknown[]);

async function queuedEvents() {
  return (await listItems())
    .filter((item) => item.kind === "event")
    .flatMap((item) => (item.request.body.type === "json" ? (item.request.body.value as unknown[]) : []));
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
  for (const item of await listItems()) await removeItem(item.id);
  await saveSessionToken(USER_ID, "token-of-user-8", Math.floor(Date.now() / 1000) + 3600);
});

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  for (const item of await listItems()) await removeItem(item.id);
  await removeSessionToken(USER_ID);
});

describe("the announcements of a study of the newer architecture", () => {
  it("are its announcement instruments, listed with the unread dot, and the list call is not made", async () => {
    const { reads } = stubServer();
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
    const { sent } = stubServer();
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
    expect(sentEvents(sent)).toEqual([expected]);
    expect(await queuedEvents()).toEqual([]);
  });

  it("shows the empty state when the study has none", () => {
    stubServer();
    renderInbox([]);
    expect(screen.getByText("You're all caught up")).toBeTruthy();
  });
});
