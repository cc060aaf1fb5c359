import { I18nProvider } from "@lingui/react";
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { i18n } from "../../i18n/i18n.ts";
import { expectVisible } from "../../survey/questions/question-harness.tsx";
import { showRecordedVisitToast } from "./recorded-visit-toast.ts";
import { Toaster } from "./toaster.tsx";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("the recorded-visit toast (spec 01 section 9)", () => {
  it("says the visit was recorded, as a status, for 5 seconds", () => {
    render(
      <I18nProvider i18n={i18n}>
        <Toaster />
      </I18nProvider>,
    );
    act(() => void showRecordedVisitToast());
    expectVisible(screen.getByRole("status"));
    expect(screen.getByRole("status").textContent).toContain("This visit was recorded.");
    act(() => {
      vi.advanceTimersByTime(4_999);
    });
    expect(screen.queryByRole("status")).not.toBeNull();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByRole("status")).toBeNull();
  });
});
