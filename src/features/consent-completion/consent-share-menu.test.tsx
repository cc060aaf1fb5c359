import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { i18n } from "../../i18n/i18n.ts";
import { ConsentShareMenu } from "./consent-share-menu.tsx";

const fetchMock = vi.fn();

function renderMenu(email: string | null) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <ConsentShareMenu
          consentId={7}
          version={2}
          participantId={42}
          participant={{ firstname: "Lucía", lastname: "Núñez", subject_id: "MDD-1052", email }}
        />
      </QueryClientProvider>
    </I18nProvider>,
  );
}

describe("the consent share menu's email", () => {
  beforeEach(() => {
    i18n.activate("en");
    fetchMock.mockReset();
    vi.stubGlobal("fetch", fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("asks first, naming the participant and the address; Cancel sends nothing", () => {
    renderMenu("lucia@example.test");
    fireEvent.click(screen.getByRole("button", { name: "Share" }));
    fireEvent.click(screen.getByRole("button", { name: "Email" }));
    const dialog = screen.getByRole("dialog", { name: "Email the consent?" });
    expect(dialog.textContent).toContain("Lucía Núñez (MDD-1052) at lucia@example.test");
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("says a participant without an address cannot be emailed, and sends nothing", () => {
    renderMenu(null);
    fireEvent.click(screen.getByRole("button", { name: "Share" }));
    fireEvent.click(screen.getByRole("button", { name: "Email" }));
    const dialog = screen.getByRole("dialog", { name: "No email address" });
    expect(dialog.textContent).toContain("Lucía Núñez (MDD-1052) has no email address");
    expect(screen.queryByRole("button", { name: "Send email" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
