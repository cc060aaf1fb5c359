import { I18nProvider } from "@lingui/react";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { i18n } from "../../i18n/i18n.ts";
import { DateInput, type DateInputProps } from "./date-input.tsx";
import type { DayOfYear } from "./date-text.ts";

afterEach(cleanup);

function renderInput(props: Partial<DateInputProps> = {}) {
  render(
    <I18nProvider i18n={i18n}>
      <form onSubmit={props.onSubmit ? undefined : (event) => event.preventDefault()}>
        <DateInput label="Visit date" locale="en-US" {...props} />
      </form>
    </I18nProvider>,
  );
  return screen.getByRole("textbox", { name: "Visit date" }) as HTMLInputElement;
}

const weekend = ({ year, month, day }: DayOfYear) =>
  [0, 6].includes(new Date(Date.UTC(year, month - 1, day)).getUTCDay());

describe("date input (spec 02 sections 4 and 5)", () => {
  it("is a text field, not the browser's picker, with the locale's format as a hint", () => {
    const input = renderInput();
    expect(input.type).toBe("text");
    expect(input.getAttribute("aria-describedby")).toContain(screen.getByText("For example 12/31/2025").id);
  });

  it("accepts only digits, the locale's separators and editing keys", () => {
    const input = renderInput();
    for (const key of ["a", "-", ".", " ", "e", "+"]) expect(fireEvent.keyDown(input, { key })).toBe(false);
    for (const key of ["0", "9", "/", "Backspace", "Delete", "Tab", "ArrowLeft", "Shift"]) {
      expect(fireEvent.keyDown(input, { key })).toBe(true);
    }
    // Shortcuts (copy, paste, select all) are left alone.
    expect(fireEvent.keyDown(input, { key: "v", ctrlKey: true })).toBe(true);
  });

  it("takes the separators of the locale it reads: German dots, Japanese slashes, Korean dots and spaces", () => {
    cleanup();
    const de = renderInput({ locale: "de-DE" });
    expect(fireEvent.keyDown(de, { key: "." })).toBe(true);
    expect(fireEvent.keyDown(de, { key: "/" })).toBe(false);
    expect(screen.getByText("For example 31.12.2025")).toBeTruthy();
    cleanup();
    const ja = renderInput({ locale: "ja-JP", onChange: vi.fn() });
    expect(screen.getByText("For example 2025/12/31")).toBeTruthy();
    expect(fireEvent.keyDown(ja, { key: "/" })).toBe(true);
    cleanup();
    const onChange = vi.fn();
    const ko = renderInput({ locale: "ko-KR", onChange });
    expect(fireEvent.keyDown(ko, { key: " " })).toBe(true);
    fireEvent.change(ko, { target: { value: "2025. 12. 31." } });
    expect(onChange).toHaveBeenLastCalledWith({ year: 2025, month: 12, day: 31 }, "valid");
  });

  it("reports the day as it is typed, and null while the text is not a day", () => {
    const onChange = vi.fn();
    const input = renderInput({ onChange });
    fireEvent.change(input, { target: { value: "3/4" } });
    expect(onChange).toHaveBeenLastCalledWith(null, "invalid");
    fireEvent.change(input, { target: { value: "3/4/2026" } });
    expect(onChange).toHaveBeenLastCalledWith({ year: 2026, month: 3, day: 4 }, "valid");
    fireEvent.change(input, { target: { value: "" } });
    expect(onChange).toHaveBeenLastCalledWith(null, "empty");
  });

  it("is invalid, once left, when the text does not parse in the locale's short format", () => {
    const input = renderInput();
    fireEvent.change(input, { target: { value: "31/12/2025" } });
    expect(screen.queryByRole("alert")).toBeNull();
    fireEvent.blur(input);
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByRole("alert").textContent).toBe("Enter a date like 12/31/2025.");
    fireEvent.change(input, { target: { value: "12/31/2025" } });
    expect(input.getAttribute("aria-invalid")).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("writes a two-digit year in full when left", () => {
    const input = renderInput();
    fireEvent.change(input, { target: { value: "1/2/25" } });
    fireEvent.blur(input);
    expect(input.value).toBe("1/2/2025");
  });

  it("submits on Enter a valid day, or null when empty; never an invalid or disabled one", () => {
    const onSubmit = vi.fn();
    const input = renderInput({ onSubmit, isDayDisabled: weekend });
    expect(fireEvent.keyDown(input, { key: "Enter" })).toBe(false);
    expect(onSubmit).toHaveBeenLastCalledWith(null);
    fireEvent.change(input, { target: { value: "2/30/2026" } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("alert").textContent).toBe("Enter a date like 12/31/2025.");
    // 1 March 2025 is a Saturday.
    fireEvent.change(input, { target: { value: "3/1/2025" } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("alert").textContent).toBe("This day cannot be chosen.");
    fireEvent.change(input, { target: { value: "3/3/2025" } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onSubmit).toHaveBeenLastCalledWith({ year: 2025, month: 3, day: 3 });
  });

  it("leaves Enter to its form when it is given no onSubmit", () => {
    const submitted = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    render(
      <I18nProvider i18n={i18n}>
        <form onSubmit={submitted}>
          <DateInput label="Birth" locale="en-US" />
        </form>
      </I18nProvider>,
    );
    expect(fireEvent.keyDown(screen.getByRole("textbox", { name: "Birth" }), { key: "Enter" })).toBe(true);
  });

  it("says a disabled day with the caller's words, and the caller's own problem otherwise", () => {
    const input = renderInput({
      isDayDisabled: weekend,
      disabledMessage: "Choose a weekday.",
      error: "Enter the visit's date.",
    });
    expect(screen.getByRole("alert").textContent).toBe("Enter the visit's date.");
    fireEvent.change(input, { target: { value: "3/1/2025" } });
    fireEvent.blur(input);
    expect(screen.getByRole("alert").textContent).toBe("Choose a weekday.");
  });

  it("shows a given ISO day in the locale's format", () => {
    cleanup();
    expect(renderInput({ defaultValue: "2026-11-22" }).value).toBe("11/22/2026");
    cleanup();
    expect(renderInput({ defaultValue: "2026-11-22", locale: "de-DE" }).value).toBe("22.11.2026");
    cleanup();
    expect(renderInput({ defaultValue: "2026-11-22", locale: "pt-BR" }).value).toBe("22/11/2026");
  });
});
