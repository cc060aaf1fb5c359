import "fake-indexeddb/auto";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { i18n } from "../i18n/i18n.ts";
import type { OutboxItem } from "../outbox/outbox-item.ts";
import { NOT_SENT_OFFLINE } from "../outbox/drain.ts";
import { getItem, listItems, putItem, removeItem } from "../outbox/outbox-store.ts";
import { removeSessionToken, saveSessionToken } from "../outbox/session-tokens.ts";
import { useOutboxChanges } from "./use-outbox.ts";
import { SubmissionStatusModal, type SubmissionStatusModalProps } from "./submission-status-modal.tsx";

const USER_ID = 7;
const HOUR_MS = 3_600_000;
const NETWORK_TEXT =
  "There was a problem submitting the clinician instrument, check your internet connection and click the button to try again.";

let counter = 0;
function outboxItem(overrides: Partial<OutboxItem> = {}): OutboxItem {
  counter += 1;
  return {
    id: `item-${counter}`,
    kind: "submission",
    request: {
      method: "POST",
      path: `/control/test/${counter}`,
      // JSON bodies: jsdom's Blobs do not survive IndexedDB's structured clone.
      body: { type: "json", value: { n: counter } },
    },
    userId: USER_ID,
    username: "clinician@example.org",
    participantId: 42,
    label: `Item ${counter}`,
    sizeBytes: 10,
    createdAt: counter,
    attempts: 0,
    state: "pending",
    nextAttemptAt: 0,
    dependsOn: [],
    ...overrides,
  };
}

const networkError = { kind: "network" as const, message: "Failed to fetch", at: 1 };
const farFuture = () => Date.now() + HOUR_MS;

/** The ids sent, in order, by Idempotency-Key; answers with `status`. */
function stubServer(status = 200) {
  const sent: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_url: string, init: RequestInit) => {
      sent.push(new Headers(init.headers).get("Idempotency-Key") ?? "");
      return new Response(JSON.stringify({ message: status === 200 ? "ok" : "no" }), { status });
    }),
  );
  return sent;
}

/** The text the dialog's aria-describedby points at. */
function descriptionOf(dialog: HTMLElement) {
  return document.getElementById(dialog.getAttribute("aria-describedby") ?? "")?.textContent ?? "";
}

function Harness(props: SubmissionStatusModalProps) {
  useOutboxChanges();
  return <SubmissionStatusModal {...props} />;
}

function renderModal(submissionId: string, form?: "instrument" | "consent") {
  const onDelivered = vi.fn();
  const onClose = vi.fn();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <Harness submissionId={submissionId} form={form} onDelivered={onDelivered} onClose={onClose} />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { onDelivered, onClose };
}

beforeEach(async () => {
  for (const item of await listItems()) await removeItem(item.id);
  await saveSessionToken(USER_ID, "token-of-user-7", Math.floor(Date.now() / 1000) + 3600);
});

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await removeSessionToken(USER_ID);
});

describe("the network error modal", () => {
  it("appears with the spec's text when the submission could not reach the server", async () => {
    const submission = outboxItem({ attempts: 1, lastError: networkError, nextAttemptAt: farFuture() });
    await putItem(submission);
    renderModal(submission.id);
    const dialog = await screen.findByRole("alertdialog", { name: "Network error" });
    expect(dialog.getAttribute("aria-modal")).toBe("true");
    expect(descriptionOf(dialog)).toContain(NETWORK_TEXT);
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Retry" }));
  });

  it("appears when a network error ended the round before the submission's turn", async () => {
    // An event of the same participant went first and met the network error: the submission
    // was never tried (no attempt counted) but did not go either.
    const submission = outboxItem({ lastError: { ...networkError, message: NOT_SENT_OFFLINE } });
    await putItem(submission);
    renderModal(submission.id);
    expect(await screen.findByRole("alertdialog", { name: "Network error" })).toBeTruthy();
  });

  it("appears for a submission waiting for an enrolment that met a network error, and Retry sends both", async () => {
    const enrolment = outboxItem({
      kind: "enrolment",
      participantId: -77,
      attempts: 1,
      lastError: networkError,
      nextAttemptAt: farFuture(),
      request: {
        method: "POST",
        path: "/control/studies/1/sites/2/participants",
        body: { type: "json", value: {} },
      },
    });
    const submission = outboxItem({ participantId: -77, dependsOn: [enrolment.id] });
    await putItem(enrolment);
    await putItem(submission);
    renderModal(submission.id);
    const dialog = await screen.findByRole("alertdialog", { name: "Network error" });
    expect(descriptionOf(dialog)).toContain(NETWORK_TEXT);
    expect(screen.queryByRole("alertdialog", { name: "Files not uploaded" })).toBeNull();
    stubServer(503);
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    await waitFor(async () => expect((await getItem(enrolment.id))?.attempts).toBe(2));
  });

  it("uses the consent's text for a consent", async () => {
    const submission = outboxItem({
      kind: "consent",
      attempts: 1,
      lastError: networkError,
      nextAttemptAt: farFuture(),
    });
    await putItem(submission);
    renderModal(submission.id, "consent");
    expect(
      await screen.findByText(
        "There was a problem submitting the consent, check your internet connection and click the button to try again.",
      ),
    ).not.toBeNull();
  });

  it("Retry sends the submission again and reports its delivery", async () => {
    const submission = outboxItem({ attempts: 1, lastError: networkError, nextAttemptAt: farFuture() });
    await putItem(submission);
    const sent = stubServer(200);
    const { onDelivered } = renderModal(submission.id);
    fireEvent.click(await screen.findByRole("button", { name: "Retry" }));
    await waitFor(() => expect(onDelivered).toHaveBeenCalledTimes(1));
    expect(sent).toEqual([submission.id]);
    expect(await getItem(submission.id)).toBeUndefined();
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it("stays open when the retry fails again", async () => {
    const submission = outboxItem({ attempts: 1, lastError: networkError, nextAttemptAt: farFuture() });
    await putItem(submission);
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    const { onDelivered } = renderModal(submission.id);
    fireEvent.click(await screen.findByRole("button", { name: "Retry" }));
    await waitFor(async () => expect((await getItem(submission.id))?.attempts).toBe(2));
    expect(screen.getByRole("alertdialog", { name: "Network error" })).not.toBeNull();
    expect(onDelivered).not.toHaveBeenCalled();
  });

  it("Send later closes it and keeps the submission queued", async () => {
    const submission = outboxItem({ attempts: 1, lastError: networkError, nextAttemptAt: farFuture() });
    await putItem(submission);
    const { onClose } = renderModal(submission.id);
    fireEvent.click(await screen.findByRole("button", { name: "Send later" }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(await getItem(submission.id)).toBeDefined();
  });

  it("Escape leaves the submission queued too", async () => {
    const submission = outboxItem({ attempts: 1, lastError: networkError, nextAttemptAt: farFuture() });
    await putItem(submission);
    const { onClose } = renderModal(submission.id);
    await screen.findByRole("alertdialog");
    fireEvent.keyDown(document, { key: "Escape" });
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe("the failed-files modal", () => {
  it("appears, naming the files, when an upload the submission waits for failed", async () => {
    const upload = outboxItem({
      kind: "upload",
      label: "wound-photo.jpeg",
      attempts: 1,
      lastError: networkError,
      nextAttemptAt: farFuture(),
    });
    const submission = outboxItem({ dependsOn: [upload.id] });
    await putItem(upload);
    await putItem(submission);
    renderModal(submission.id);
    const dialog = await screen.findByRole("alertdialog", { name: "Files not uploaded" });
    expect(descriptionOf(dialog)).toContain("There was a problem uploading the instrument files");
    expect(screen.getByRole("list", { name: "Files not uploaded" }).textContent).toContain(
      "wound-photo.jpeg",
    );
    expect(screen.queryByRole("alertdialog", { name: "Network error" })).toBeNull();
  });

  it("appears when an upload was refused by the server", async () => {
    const upload = outboxItem({
      kind: "upload",
      state: "failed",
      attempts: 1,
      lastError: { kind: "http", status: 413, message: "too large", at: 1 },
    });
    const submission = outboxItem({ dependsOn: [upload.id] });
    await putItem(upload);
    await putItem(submission);
    renderModal(submission.id);
    expect(await screen.findByRole("alertdialog", { name: "Files not uploaded" })).not.toBeNull();
  });

  it("Retry sends only the failed files, then the submission follows by itself", async () => {
    // One of two uploads already went through (it has left the outbox); the other failed.
    const delivered = outboxItem({ kind: "upload" });
    const failed = outboxItem({
      kind: "upload",
      attempts: 2,
      lastError: networkError,
      nextAttemptAt: farFuture(),
    });
    const submission = outboxItem({ dependsOn: [delivered.id, failed.id] });
    // An unrelated item still in its backoff: Retry must not send it.
    const unrelated = outboxItem({
      kind: "event",
      attempts: 1,
      lastError: networkError,
      nextAttemptAt: farFuture(),
    });
    for (const item of [failed, submission, unrelated]) await putItem(item);
    const sent = stubServer(200);
    const { onDelivered } = renderModal(submission.id);
    fireEvent.click(await screen.findByRole("button", { name: "Retry" }));
    await waitFor(() => expect(onDelivered).toHaveBeenCalledTimes(1));
    expect(sent).toEqual([failed.id, submission.id]);
    expect(await getItem(unrelated.id)).toBeDefined();
  });
});

describe("delivery and waiting", () => {
  it("reports delivery when the submission has left the outbox", async () => {
    const { onDelivered } = renderModal("delivered-before-the-screen-looked");
    await waitFor(() => expect(onDelivered).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it("shows nothing while the submission waits for its turn", async () => {
    const upload = outboxItem({ kind: "upload", nextAttemptAt: farFuture() });
    const submission = outboxItem({ dependsOn: [upload.id] });
    await putItem(upload);
    await putItem(submission);
    const { onDelivered } = renderModal(submission.id);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(onDelivered).not.toHaveBeenCalled();
  });

  it("does not blame the network while the user must sign in again", async () => {
    await removeSessionToken(USER_ID);
    const submission = outboxItem({
      attempts: 1,
      lastError: { kind: "http", status: 401, message: "unauthorized", at: 1 },
    });
    await putItem(submission);
    renderModal(submission.id);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it("says when the server refused the submission, which stays queued for review", async () => {
    const submission = outboxItem({
      state: "failed",
      attempts: 1,
      lastError: { kind: "http", status: 422, message: "answers do not match the form", at: 1 },
    });
    await putItem(submission);
    const { onClose } = renderModal(submission.id);
    const dialog = await screen.findByRole("alertdialog", { name: "Submission not accepted" });
    expect(dialog.textContent).toContain("answers do not match the form");
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(await getItem(submission.id)).toBeDefined();
  });
});
