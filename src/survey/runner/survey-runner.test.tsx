import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { i18n } from "../../i18n/i18n.ts";
import { schemaDefinition } from "../engine/test-fixtures.ts";
import { expectVisible } from "../questions/question-harness.tsx";
import { SurveyRunner, type SurveyRunnerProps } from "./survey-runner.tsx";

afterEach(cleanup);

const definition = schemaDefinition([
  { id: "intro", type: "introduction", label: "HAM-D 17" },
  { id: "mood", type: "text", label: "Mood today" },
  { id: "end", type: "submission", label: "All done", comments: "Choose Finish to submit." },
]);

function renderRunner(overrides: Partial<SurveyRunnerProps> = {}) {
  const onFinish = vi.fn();
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
