import { I18nProvider } from "@lingui/react";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { i18n } from "../../i18n/i18n.ts";
import { setDateLocale } from "../../i18n/format-date.ts";
import { TimeInput, type TimeInputProps } from "./time-input.tsx";

afterEach(() => {
  cleanup();
  setDateLocale("en-US");
});

function renderInput(props: Partial<TimeInputProps> = {}) {
  const onChange = vi.fn();
  render(
    <I18nProvider i18n={i18n}>
      <TimeInput label="Start time" value={null} onChange={onChange} {...props} />
    </I18nProvider>,
  );
  return { input: screen.getByRole("textbox", { name: "Start time" }) as HTMLInputElement, onChange };
}

describe("time picker (spec 02 section 5)", () => {
  it("reads and writes a 24-hour time, HH:mm", () => {
    const { input, onChange } = renderInput({ format: "24h" });
    expect(screen.getByText("Format HH:mm")).toBeTruthy();
    fireEvent.change(input, { target: { value: "9:05" } });
    expect(onChange).toHaveBeenLastCalledWith({ hours: 9, minutes: 5 });
    fireEvent.blur(input);
    expect(input.value).toBe("09:05");
    fireEvent.change(input, { target: { value: "21:45" } });
    expect(onChange).toHaveBeenLastCalledWith({ hours: 21, minutes: 45 });
  });

  it("reads and writes a 12-hour time, hh:mm A", () => {
    const { input, onChange } = renderInput({ format: "12h", value: { hours: 14, minutes: 30 } });
    expect(input.value).toBe("02:30 PM");
    expect(screen.getByText("Format hh:mm A")).toBeTruthy();
    fireEvent.change(input, { target: { value: "12:15 am" } });
    expect(onChange).toHaveBeenLastCalledWith({ hours: 0, minutes: 15 });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(input.value).toBe("12:15 AM");
  });

  it("marks a time that is not one in the format, or has seconds, once left", () => {
    const { input, onChange } = renderInput({ format: "24h" });
    fireEvent.change(input, { target: { value: "14:30:15" } });
    expect(onChange).toHaveBeenLastCalledWith(null);
    expect(screen.queryByRole("alert")).toBeNull();
    fireEvent.blur(input);
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByRole("alert").textContent).toBe("Enter a time as HH:mm.");
    fireEvent.change(input, { target: { value: "14:30" } });
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("uses the browser language's clock by default", () => {
    setDateLocale("en-US");
    expect(renderInput({ value: { hours: 14, minutes: 5 } }).input.value).toBe("02:05 PM");
    cleanup();
    setDateLocale("fr-FR");
    expect(renderInput({ value: { hours: 14, minutes: 5 } }).input.value).toBe("14:05");
  });

  it("says the caller's problem when it has none of its own", () => {
    renderInput({ format: "24h", error: "Enter the visit's start time." });
    expect(screen.getByRole("alert").textContent).toBe("Enter the visit's start time.");
  });
});
