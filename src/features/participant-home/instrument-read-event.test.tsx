/**
 * Opening an instrument in the newer architecture sends its read event first (spec 02 section
 * 4): the real lists queue it in the outbox (fake IndexedDB) before the instrument route opens,
 * and the drain sends it to the events call; the server's fetch is stubbed.
 */
import "fake-indexeddb/auto";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { InstrumentWithInstances } from "../../../core/contracts/instrument-lists.ts";
import { instrumentListKeys } from "../../api/instruments-api.ts";
import { i18n } from "../../i18n/i18n.ts";
import { requestFlush } from "../../outbox/flusher.ts";
import {
  endWithEmptyOutbox,
  queuedEvents,
  startWithEmptyOutbox,
  stubEventsServer,
} from "../../outbox/fake-events-server.ts";
import { useOutboxChanges } from "../../outbox-ui/use-outbox.ts";
import { InstrumentLists } from "./instrument-lists-view.tsx";

const USER_ID = 7;
const STUDY_ID = 102;
const SITE_ID = 3;
const PARTICIPANT_ID = 4321;
/** Above the default architecture version: the instances list, with its events. */
const NEWER_ARCHITECTURE = 2;

const push = vi.hoisted(() => vi.fn());

vi.mock("@tanstack/react-router", () => ({
  Link: ({ children, className }: { children: ReactNode; className?: string }) => (
    <a href="#link" className={className}>
      {children}
    </a>
  ),
  useRouter: () => ({ history: { push } }),
}));

vi.mock("../../auth/use-stored-user.ts", () => ({
  useStoredUser: () => ({
    id: 7,
    username: "clinician@example.org",
    permissions: { "102": { role: "11", study_name: "MDD", sites: [{ site_id: 3, site_name: "North" }] } },
  }),
}));

const HOUR_MS = 3_600_000;

function instruments(): InstrumentWithInstances[] {
  return [
    {
      instrument_id: 55,
      name: "Hamilton Depression Rating Scale",
      instrument_type: "CLINRO",
      permissions: ["16", "11"],
      visible_days: 1,
      metadata: { display_name: "HAM-D 17" },
      url: "/studies/102/instruments/55/ham-d-17",
      instances: [
        {
          instance_id: 9001,
          start_date: new Date(Date.now() - HOUR_MS).toISOString(),
          expiration: null,
          completion: null,
          who_completed: null,
          who_completed_name: null,
        },
      ],
    },
  ];
}

function Harness({ consentLocked }: { consentLocked: boolean }) {
  useOutboxChanges();
  return (
    <InstrumentLists
      studyId={STUDY_ID}
      siteId={SITE_ID}
      participantId={PARTICIPANT_ID}
      architectureVersion={NEWER_ARCHITECTURE}
      consentLocked={consentLocked}
    />
  );
}

function renderLists({ consentLocked = false } = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  queryClient.setQueryData(instrumentListKeys.instances(PARTICIPANT_ID, STUDY_ID), {
    instruments: instruments(),
  });
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <Harness consentLocked={consentLocked} />
      </QueryClientProvider>
    </I18nProvider>,
  );
}

beforeEach(async () => {
  i18n.activate("en");
  push.mockClear();
  await startWithEmptyOutbox(USER_ID);
});

afterEach(async () => {
  cleanup();
  await endWithEmptyOutbox(USER_ID);
});

describe("the instrument's read event", () => {
  it("is queued before the instrument opens, and sent, naming the instrument, delivery, study and participant", async () => {
    const server = stubEventsServer();
    renderLists();
    fireEvent.click(await screen.findByRole("button", { name: /HAM-D 17/ }));
    await waitFor(() => expect(push).toHaveBeenCalledTimes(1));
    expect(push).toHaveBeenCalledWith(
      "/studies/102/sites/3/participants/4321/instruments/55/ham-d-17?instance_id=9001",
    );
    const expected = {
      type: "read",
      timestamp: expect.any(String) as unknown,
      info: { instrument_id: 55, instance_id: 9001, study_id: STUDY_ID },
      study_id: STUDY_ID,
      participant: PARTICIPANT_ID,
    };
    // Already in the outbox when the route opens.
    expect((await queuedEvents()).filter((event) => event.type === "read")).toEqual([expected]);

    await act(async () => {
      await requestFlush();
    });
    expect(server.events().filter((event) => event.type === "read")).toEqual([expected]);
    expect(await queuedEvents()).toEqual([]);
  });

  it("is not sent while the list is only shown", async () => {
    const server = stubEventsServer();
    renderLists();
    await screen.findByRole("button", { name: /HAM-D 17/ });
    // The list's own delivered event is queued and sent: the drain ran, with no read event.
    await waitFor(async () =>
      expect((await queuedEvents()).map((event) => event.type)).toContain("delivered"),
    );
    await act(async () => {
      await requestFlush();
    });
    expect(server.events().map((event) => event.type)).toContain("delivered");
    expect(server.events().map((event) => event.type)).not.toContain("read");
    expect(push).not.toHaveBeenCalled();
  });

  it("is neither sent nor offered while the participant's consent comes first, nor are the list's events", async () => {
    const server = stubEventsServer();
    renderLists({ consentLocked: true });
    // The instrument is listed, locked, and is no button to open.
    expect(await screen.findByText("(locked: the participant's consent comes first)")).toBeTruthy();
    expect(screen.queryByRole("button", { name: /HAM-D 17/ })).toBeNull();
    await act(async () => {
      await requestFlush();
    });
    expect(await queuedEvents()).toEqual([]);
    expect(server.events()).toEqual([]);
    expect(push).not.toHaveBeenCalled();
  });
});
