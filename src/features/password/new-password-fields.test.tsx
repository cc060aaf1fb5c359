import { I18nProvider } from "@lingui/react";
import { cleanup, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { activateLocale, i18n } from "../../i18n/i18n.ts";
import { NewPasswordFields } from "./new-password-fields.tsx";

afterEach(cleanup);
beforeAll(() => activateLocale("en"));

function Fields({ initial, refused }: { initial: string; refused: string | null }) {
  const [password, setPassword] = useState(initial);
  return (
    <I18nProvider i18n={i18n}>
      <NewPasswordFields
        password={password}
        onPasswordChange={setPassword}
        confirmation=""
        onConfirmationChange={() => {}}
        error={null}
        refusedAsCommon={refused}
      />
    </I18nProvider>
  );
}

describe("a password the server refused as too common", () => {
  it("is told beside the five rules, announced, and described on the field", () => {
    render(<Fields initial="Summer2024!" refused="Summer2024!" />);
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toMatch(/too common/);
    expect(alert.textContent).toMatch(/100,000 most used passwords/);
    // The message follows the rules' checklist.
    const checklist = screen.getByRole("list", { name: "Password requirements" });
    expect(checklist.compareDocumentPosition(alert) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const field = screen.getByLabelText("New password");
    expect(field.getAttribute("aria-describedby")).toContain(alert.id);
    expect(field.getAttribute("aria-invalid")).toBe("true");
  });

  it("goes away once the password is another one", () => {
    render(<Fields initial="Heron7!Lantern" refused="Summer2024!" />);
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByLabelText("New password").getAttribute("aria-invalid")).toBeNull();
  });
});
