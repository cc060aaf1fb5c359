import { I18nProvider } from "@lingui/react";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { i18n } from "../../i18n/i18n.ts";
import { OnboardingCard } from "./onboarding-card.tsx";

afterEach(cleanup);

function renderCard(kind: "activities" | "announcements", onDismiss = vi.fn()) {
  render(
    <I18nProvider i18n={i18n}>
      <OnboardingCard kind={kind} title="Your inbox" onDismiss={onDismiss}>
        <p>Messages from the study team arrive here.</p>
      </OnboardingCard>
    </I18nProvider>,
  );
  return onDismiss;
}

describe("onboarding card", () => {
  it("is a region named by its title, with the mascot as decoration", () => {
    renderCard("announcements");
    const region = screen.getByRole("region", { name: "Your inbox" });
    expect(region.dataset.kind).toBe("announcements");
    expect(region.textContent).toContain("Getting started: announcements");
    expect(region.textContent).toContain("Messages from the study team arrive here.");
    expect(screen.getByRole("heading", { level: 2, name: "Your inbox" })).toBeTruthy();
    const mascot = region.querySelector("img")!;
    expect(mascot.getAttribute("alt")).toBe("");
    expect(mascot.getAttribute("src")).toMatch(/\/mascot\.svg$/);
    expect(screen.queryByRole("img")).toBeNull();
  });

  it("says which kind it is", () => {
    renderCard("activities");
    const region = screen.getByRole("region", { name: "Your inbox" });
    expect(region.className).toContain("onboarding-card--activities");
    expect(region.textContent).toContain("Getting started: activities");
  });

  it("calls onDismiss once when Got it is pressed", () => {
    const onDismiss = renderCard("activities");
    expect(onDismiss).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Got it" }));
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });
});
