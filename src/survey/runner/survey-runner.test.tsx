import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { i18n } from "../../i18n/i18n.ts";
import { schemaDefinition } from "../../../core/survey-engine/test-fixtures.ts";
import { expectVisible } from "../questions/question-harness.tsx";
import { useState } from "react";
import { SLOW_SAVE_NOTICE_MS } from "./slow-save-notice.tsx";
import { SurveyRunner, type SurveyRunnerProps } from "./survey-runner.tsx";

afterEach(cleanup);

const definition = schemaDefinition([
  { id: "intro", type: "introduction", label: "HAM-D 17" },
  { id: "mood", type: "text", label: "Mood today" },
  { id: "end", type: "submission", label: "All done", comments: "Choose Finish to submit." },
]);

function renderRunner(overrides: Partial<SurveyRunnerProps> = {}) {
  const onFinish = vi.fn<SurveyRunnerProps["onFinish"]>(async () => true);
  render(
    <I18nProvider i18n={i18n}>
      <SurveyRunner
        definition={definition}
        title="HAM-D"
        draft={undefined}
        definitionKey="fixture:3"
        saveDraft={() => Promise.resolve()}
        context={{ studyId: 101, siteId: 1, participantId: 1, instrumentId: 1 }}
        onParsingFailed={() => undefined}
        onFinish={onFinish}
        onQuit={() => undefined}
        {...overrides}
      />
    </I18nProvider>,
  );
  return { onFinish };
}

describe("the introduction's buttons (spec 02 section 2)", () => {
  it("reads Begin before the start, and Finish in submission mode, which submits at once", () => {
    const { onFinish } = renderRunner();
    fireEvent.click(screen.getByRole("button", { name: "Begin" }));
    expectVisible(screen.getByRole("heading", { name: "Mood today" }));
    fireEvent.click(screen.getByRole("button", { name: "Skip" }));

    // The definition's own submission question, shown like the introduction.
    expectVisible(screen.getByRole("heading", { name: "All done" }));
    expectVisible(screen.getByText("Choose Finish to submit."));
    expect(screen.queryByRole("button", { name: "Next" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Finish" }));

    expect(onFinish).toHaveBeenCalledTimes(1);
    const [{ flow }] = onFinish.mock.calls[0] as [{ flow: { records: { id: string }[] } }];
    expect(flow.records.map((record) => record.id)).toEqual(["intro", "mood", "end"]);
  });

  it("without a submission question, the runner's own submission step follows the last question", () => {
    const { onFinish } = renderRunner({
      definition: schemaDefinition([{ id: "mood", type: "text", label: "Mood today" }]),
    });
    fireEvent.click(screen.getByRole("button", { name: "Skip" }));
    expectVisible(screen.getByRole("heading", { name: "Ready to submit" }));
    fireEvent.click(screen.getByRole("button", { name: "Finish" }));
    expect(onFinish).toHaveBeenCalledTimes(1);
  });
});

describe("a sibling group (spec 02 §4, 'Siblings auto-submit on selection')", () => {
  const group = schemaDefinition(
    [
      {
        id: "feeling",
        type: "select_one",
        label: "Today overall",
        sibling_id: "daily",
        choices: { good: { label: "Good", score_value: 1 }, bad: { label: "Bad", score_value: 0 } },
      },
      { id: "comment", type: "text", label: "Comment", sibling_id: "daily" },
      {
        id: "sleep",
        type: "select_one",
        label: "Slept well",
        sibling_id: "daily",
        choices: { yes: { label: "Yes", score_value: 1 }, no: { label: "No", score_value: 0 } },
      },
    ],
    { siblings: { daily: ["feeling", "comment", "sleep"] } },
  );

  it("records a selection in the first sibling and stays; the last unanswered sibling chosen moves on with every answer", () => {
    const { onFinish } = renderRunner({ definition: group });
    fireEvent.click(screen.getByRole("radio", { name: "Good" }));
    // Still the group: the other siblings are there to answer, nothing was submitted.
    expectVisible(screen.getByRole("heading", { name: "Comment" }));
    expect(screen.getByRole("radio", { name: "Good" })).toHaveProperty("checked", true);
    expect(screen.queryByRole("heading", { name: "Ready to submit" })).toBeNull();
    fireEvent.change(screen.getByRole("textbox", { name: "Comment" }), { target: { value: "Tired" } });
    fireEvent.click(screen.getByRole("radio", { name: "Yes" }));
    expectVisible(screen.getByRole("heading", { name: "Ready to submit" }));
    fireEvent.click(screen.getByRole("button", { name: "Finish" }));
    const [{ flow }] = onFinish.mock.calls[0]!;
    expect(flow.records.map((record) => [record.id, record.answer.map((entry) => entry.value)])).toEqual([
      ["feeling", ["good"]],
      ["comment", ["Tired"]],
      ["sleep", ["yes"]],
    ]);
  });

  it("Skip moves on with what is answered, the rest skipped", () => {
    const { onFinish } = renderRunner({ definition: group });
    fireEvent.click(screen.getByRole("radio", { name: "Bad" }));
    fireEvent.click(screen.getByRole("button", { name: "Skip" }));
    fireEvent.click(screen.getByRole("button", { name: "Finish" }));
    const [{ flow }] = onFinish.mock.calls[0]!;
    expect(flow.records.map((record) => [record.id, record.state])).toEqual([
      ["feeling", "ANSWERED"],
      ["comment", "SKIPPED"],
      ["sleep", "SKIPPED"],
    ]);
  });
});

describe("a device that refuses to store", () => {
  const signed = schemaDefinition([
    { id: "name", type: "text", label: "Your name", attributes: { required: true } },
  ]);

  it("says which required answer holds the step", () => {
    renderRunner({ definition: signed, finishOnLastQuestion: true, kind: "consent" });
    const finish = screen.getByRole("button", { name: "Finish + Close" });
    expect(finish).toHaveProperty("disabled", true);
    expect(finish.getAttribute("aria-describedby")).toBeTruthy();
    expectVisible(screen.getByText("Answer the question above to continue."));
  });

  it("keeps the last question and its answers on screen when the page could not take the result", async () => {
    const onFinish = vi.fn<SurveyRunnerProps["onFinish"]>(async () => false);
    const saveDraft = vi.fn(async () => undefined);
    renderRunner({ definition: signed, finishOnLastQuestion: true, kind: "consent", onFinish, saveDraft });
    fireEvent.change(screen.getByRole("textbox", { name: "Your name" }), { target: { value: "Ana" } });
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Finish + Close" }));
    });
    expect(onFinish).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("textbox", { name: "Your name" })).toHaveProperty("value", "Ana");
    expect(screen.queryByRole("heading", { name: "Ready to submit" })).toBeNull();
    // The draft holds the answer again, and a second Finish tries again.
    await waitFor(() => expect(saveDraft.mock.calls.at(-1)).toBeDefined());
    const lastDraft = saveDraft.mock.calls.at(-1) as unknown as [
      { answers: Record<string, { value: unknown }[]> },
    ];
    expect(lastDraft[0].answers.name![0]!.value).toBe("Ana");
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Finish + Close" }));
    });
    expect(onFinish).toHaveBeenCalledTimes(2);
  });

  it("tells the clinician at once when the draft cannot be saved, and offers the export", async () => {
    const saveDraft = vi.fn(async () => {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    });
    renderRunner({ saveDraft });
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Begin" }));
    });
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Your answers could not be saved on this device.");
    expect(alert.textContent).toContain("QuotaExceededError: The quota has been exceeded.");
    expectVisible(screen.getByRole("button", { name: "Export the answers" }));
    // Still on screen and usable.
    expectVisible(screen.getByRole("heading", { name: "Mood today" }));
  });
});

describe("a save that stalls (an IndexedDB that does not answer)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The page's side: Finish marks the form as saving until the save, held here, ends. */
  /** `asking`: the held step is a question the page asks first (a signing password), not a save. */
  function StallingPage({
    onFinish,
    asking = false,
  }: {
    onFinish: SurveyRunnerProps["onFinish"];
    asking?: boolean;
  }) {
    const [finishing, setFinishing] = useState(false);
    const [storing, setStoring] = useState(false);
    return (
      <I18nProvider i18n={i18n}>
        <SurveyRunner
          definition={schemaDefinition([{ id: "mood", type: "text", label: "Mood today" }])}
          title="HAM-D"
          draft={undefined}
          definitionKey="fixture:1"
          saveDraft={() => Promise.resolve()}
          context={{ studyId: 101, siteId: 1, participantId: 1, instrumentId: 1 }}
          onParsingFailed={() => undefined}
          onFinish={async (result) => {
            setFinishing(true);
            setStoring(!asking);
            const taken = await onFinish(result).finally(() => setStoring(false));
            // As the pages do: a stored form stays finished while its delivery is shown.
            if (!taken) setFinishing(false);
            return taken;
          }}
          onQuit={() => undefined}
          finishing={finishing}
          storing={storing}
        />
      </I18nProvider>
    );
  }

  it("says so after a few seconds, offers the export, and never starts a second save", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let endSave: (taken: boolean) => void = () => undefined;
    const onFinish = vi.fn<SurveyRunnerProps["onFinish"]>(
      () => new Promise<boolean>((resolve) => (endSave = resolve)),
    );
    render(<StallingPage onFinish={onFinish} />);
    fireEvent.change(screen.getByRole("textbox", { name: "Mood today" }), { target: { value: "Low" } });
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Finish" }));
    });
    expect(onFinish).toHaveBeenCalledTimes(1);
    // A save that takes a moment is not a problem worth a message.
    await act(async () => {
      vi.advanceTimersByTime(SLOW_SAVE_NOTICE_MS - 500);
    });
    expect(screen.queryByText("Still saving on this device…")).toBeNull();

    await act(async () => {
      vi.advanceTimersByTime(1_000);
    });
    const notice = screen.getByRole("status");
    expect(notice.textContent).toContain("Still saving on this device…");
    expect(notice.textContent).toContain("keep it open");
    expectVisible(screen.getByRole("button", { name: "Export the answers" }));
    // Finish stays unavailable while the first save may still complete: no second copy.
    const finish = screen.getByRole("button", { name: "Finish" });
    expect(finish).toHaveProperty("disabled", true);
    fireEvent.click(finish);
    expect(onFinish).toHaveBeenCalledTimes(1);
    const [{ flow }] = onFinish.mock.calls[0]!;
    expect(flow.records.map((record) => record.id)).toContain("mood");

    // The save ends after all (the page goes on to its status dialog): the notice goes with it,
    // and does not come back while the page shows the delivery, Finish still unavailable.
    await act(async () => {
      endSave(true);
    });
    expect(screen.queryByText("Still saving on this device…")).toBeNull();
    await act(async () => {
      vi.advanceTimersByTime(2 * SLOW_SAVE_NOTICE_MS);
    });
    expect(screen.queryByText("Still saving on this device…")).toBeNull();
    expect(screen.getByRole("button", { name: "Finish" })).toHaveProperty("disabled", true);
  });

  it("says nothing while the page asks something before it stores (a signing password)", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const onFinish = vi.fn<SurveyRunnerProps["onFinish"]>(() => new Promise<boolean>(() => undefined));
    render(<StallingPage onFinish={onFinish} asking />);
    fireEvent.click(screen.getByRole("button", { name: "Skip" }));
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Finish" }));
    });
    await act(async () => {
      vi.advanceTimersByTime(2 * SLOW_SAVE_NOTICE_MS);
    });
    expect(onFinish).toHaveBeenCalledTimes(1);
    expect(screen.queryByText("Still saving on this device…")).toBeNull();
  });
});
