/**
 * The instrument page's seen, completed and submitFailed events (spec 02 section 4, "Events
 * sent") are queued in the outbox and leave it for the events call: the real page, runner,
 * status modal, outbox (fake IndexedDB) and drain, with the server's fetch stubbed.
 */
import "fake-indexeddb/auto";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider, queryOptions } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { postEventsCall } from "../../../core/contracts/calls/event-calls.ts";
import { schemaDefinition } from "../../../core/survey-engine/test-fixtures.ts";
import { i18n } from "../../i18n/i18n.ts";
import { draftKeyFor, removeDraft } from "../../outbox/drafts.ts";
import { requestFlush } from "../../outbox/flusher.ts";
import { listItems } from "../../outbox/outbox-store.ts";
import {
  endWithEmptyOutbox,
  queuedEvents,
  startWithEmptyOutbox,
  stubEventsServer,
} from "../../outbox/fake-events-server.ts";
import { useOutboxChanges } from "../../outbox-ui/use-outbox.ts";
import { InstrumentPage } from "./instrument-page.tsx";

const USER_ID = 7;
const STUDY_ID = 101;
const SITE_ID = 3;
const PARTICIPANT_ID = 4321;
const INSTRUMENT_ID = 55;
const INSTANCE_ID = 9001;

const navigate = vi.hoisted(() => vi.fn(async () => undefined));

vi.mock("@tanstack/react-router", () => ({
  Link: ({ children, className }: { children: ReactNode; className?: string }) => (
    <a href="#participant" className={className}>
      {children}
    </a>
  ),
  useNavigate: () => navigate,
}));

vi.mock("../../auth/use-stored-user.ts", () => ({
  useStoredUser: () => ({
    id: 7,
    username: "clinician@example.org",
    permissions: {
      "101": { role: "clinician", study_name: "MDD", sites: [{ site_id: 3, site_name: "North" }] },
    },
  }),
}));

vi.mock("../../api/survey-definition-api.ts", () => ({
  surveyDefinitionQuery: () =>
    queryOptions({
      queryKey: ["test-definition"],
      queryFn: async () => ({
        definition: schemaDefinition([{ id: "mood", type: "text", label: "Mood today" }]),
        displayName: "HAM-D",
        permissions: undefined,
      }),
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
    }),
}));

function Harness() {
  useOutboxChanges();
  return (
    <InstrumentPage
      studyId={STUDY_ID}
      siteId={SITE_ID}
      participantId={PARTICIPANT_ID}
      instrumentId={INSTRUMENT_ID}
      instrument="ham-d"
      searchStr={`?instance_id=${INSTANCE_ID}`}
      instanceId={INSTANCE_ID}
    />
  );
}

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <Harness />
      </QueryClientProvider>
    </I18nProvider>,
  );
}

/** The event as spec 02 section 4 gives it: the instrument, the delivery, study and participant. */
function expectedEvent(type: string) {
  return {
    type,
    timestamp: expect.any(String) as unknown,
    info: { instrument_id: INSTRUMENT_ID, instance_id: INSTANCE_ID, study_id: STUDY_ID },
    study_id: STUDY_ID,
    participant: PARTICIPANT_ID,
  };
}

/** Answers nothing and finishes: the submission goes to the outbox. */
async function finishInstrument() {
  fireEvent.click(await screen.findByRole("button", { name: "Skip" }));
  fireEvent.click(screen.getByRole("button", { name: "Finish" }));
  await waitFor(async () =>
    expect((await listItems()).some((item) => item.kind === "submission")).toBe(true),
  );
}

async function flush(options: { ignoreBackoff?: boolean } = {}) {
  await act(async () => {
    await requestFlush(options);
  });
}

const DRAFT_KEY = draftKeyFor({
  userId: USER_ID,
  studyId: STUDY_ID,
  participantId: PARTICIPANT_ID,
  formId: `instrument:${INSTRUMENT_ID}:${INSTANCE_ID}`,
});

beforeEach(async () => {
  // Vite's define, which the unit project does not apply (as in validated-definitions.test.ts).
  vi.stubGlobal("__APP_VERSION__", "test");
  i18n.activate("en");
  await removeDraft(DRAFT_KEY);
  navigate.mockClear();
  await startWithEmptyOutbox(USER_ID);
});

afterEach(async () => {
  cleanup();
  await endWithEmptyOutbox(USER_ID);
});

describe("the instrument page's events", () => {
  it("sends seen once when the instrument opens", async () => {
    const server = stubEventsServer();
    renderPage();
    await waitFor(async () => expect(await queuedEvents()).toEqual([expectedEvent("seen")]));
    await flush();
    expect(server.events()).toEqual([expectedEvent("seen")]);
    expect(await queuedEvents()).toEqual([]);
  });

  it("sends completed once the server has stored the submission", async () => {
    const server = stubEventsServer();
    renderPage();
    await finishInstrument();
    expect((await queuedEvents()).map((event) => event.type)).not.toContain("completed");
    await flush();
    expect(server.sent.some((request) => request.path !== postEventsCall.path)).toBe(true);
    await waitFor(async () => expect(await queuedEvents()).toEqual([expectedEvent("completed")]), {
      timeout: 3000,
    });
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    await flush();
    expect(server.events().map((event) => event.type)).toEqual(["seen", "completed"]);
    expect(server.events()[1]).toEqual(expectedEvent("completed"));
  });

  it("sends submitFailed when the submission could not be sent, once the connection is back", async () => {
    const server = stubEventsServer();
    renderPage();
    await finishInstrument();
    server.offline = true;
    await flush();
    expect(await screen.findByRole("alertdialog", { name: "Network error" }, { timeout: 3000 })).toBeTruthy();
    await waitFor(async () =>
      expect((await queuedEvents()).map((event) => event.type)).toContain("submitFailed"),
    );
    expect(server.events()).toEqual([]);

    server.offline = false;
    await flush({ ignoreBackoff: true });
    const sent = server.events();
    expect(sent.filter((event) => event.type === "submitFailed")).toEqual([expectedEvent("submitFailed")]);
    expect(sent.map((event) => event.type)).not.toContain("completed");
  });
});
