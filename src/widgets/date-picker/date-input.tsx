/**
 * The date input (spec 02 sections 4 and 5), used for every date the portal asks for instead of
 * the browser's own picker: a text field in the locale's short date format (the browser's
 * language: 12/31/2025 in en-US, 31/12/2025 in en-GB, 31.12.2025 in de) that accepts only
 * digits, that format's separators and editing keys. Enter submits: the caller's onSubmit when it
 * gives one (with the day, or null when the field is empty), else the form the field is in. A
 * text that does not parse is marked invalid once the field is left or Enter is pressed, and so
 * is a day the caller disabled.
 */
import { Trans } from "@lingui/react/macro";
import { useId, useState, type ReactNode, type Ref } from "react";
import { dateLocale } from "../../i18n/format-date.ts";
import {
  dayOfIso,
  formatShortDate,
  isAllowedDateKey,
  readDateText,
  shortDateFormat,
  type DateTextState,
  type DayOfYear,
} from "./date-text.ts";
import "../widgets.css";

export type DateInputProps = {
  /** The visible label; leave it out when labelledBy names the field (a question's label). */
  label?: ReactNode;
  labelledBy?: string | undefined;
  describedBy?: string | undefined;
  id?: string | undefined;
  /** The day shown first, as an ISO date ("2026-11-22"); the field keeps its text from then on. */
  defaultValue?: string | undefined;
  /** The text shown first (overrides defaultValue), e.g. an invalid one in the gallery. */
  defaultText?: string | undefined;
  /** Called on every change with the day, or null, and what the text is. */
  onChange?: (value: DayOfYear | null, kind: DateTextState["kind"]) => void;
  /** Enter on a valid day (or on an empty field, with null). Without it Enter submits the form. */
  onSubmit?: (value: DayOfYear | null) => void;
  isDayDisabled?: ((value: DayOfYear) => boolean) | undefined;
  /** Said under a disabled day; "This day cannot be chosen." by default. */
  disabledMessage?: ReactNode;
  /** The caller's own problem (required, a server refusal), said when the field has none. */
  error?: ReactNode;
  required?: boolean | undefined;
  disabled?: boolean | undefined;
  className?: string | undefined;
  inputClassName?: string | undefined;
  labelClassName?: string | undefined;
  /** The locale whose short format is read; the browser's language (dateLocale()) by default. */
  locale?: string | undefined;
  ref?: Ref<HTMLInputElement>;
};

export function DateInput({
  label,
  labelledBy,
  describedBy,
  id,
  defaultValue,
  defaultText,
  onChange,
  onSubmit,
  isDayDisabled,
  disabledMessage,
  error,
  required,
  disabled,
  className,
  inputClassName,
  labelClassName,
  locale,
  ref,
}: DateInputProps) {
  const locale_ = locale ?? dateLocale();
  const madeId = useId();
  const inputId = id ?? madeId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const [text, setText] = useState(() => {
    if (defaultText !== undefined) return defaultText;
    const day = dayOfIso(defaultValue);
    return day ? formatShortDate(day, locale_) : "";
  });
  const [touched, setTouched] = useState(text !== "");
  const state = readDateText(text, locale_, isDayDisabled);
  const example = shortDateFormat(locale_).example;
  const ownError =
    touched && state.kind === "invalid" ? (
      <Trans id="widget_date_invalid">Enter a date like {example}.</Trans>
    ) : touched && state.kind === "disabled" ? (
      (disabledMessage ?? <Trans id="widget_date_disabled">This day cannot be chosen.</Trans>)
    ) : null;
  const shownError = ownError ?? error ?? null;
  const described = [describedBy, hintId, shownError ? errorId : undefined].filter(Boolean).join(" ");
  return (
    <div className={["field", "date-input", className].filter(Boolean).join(" ")}>
      {label ? (
        <label htmlFor={inputId} className={labelClassName}>
          {label}
        </label>
      ) : null}
      <span id={hintId} className="rac-field__description">
        <Trans id="widget_date_hint">For example {example}</Trans>
      </span>
      <input
        ref={ref}
        id={inputId}
        className={inputClassName}
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        value={text}
        disabled={disabled}
        required={required}
        aria-required={required || undefined}
        aria-labelledby={label ? undefined : labelledBy}
        aria-invalid={shownError ? true : undefined}
        aria-describedby={described}
        onKeyDown={(event) => {
          if (event.ctrlKey || event.metaKey || event.altKey) return;
          // Keys that type nothing (Shift, F5, a dead key) pass; a typed character must be allowed.
          if (event.key.length === 1 && !isAllowedDateKey(event.key, locale_)) {
            event.preventDefault();
            return;
          }
          if (event.key === "Enter") {
            setTouched(true);
            if (!onSubmit) return;
            event.preventDefault();
            if (state.kind === "valid") onSubmit(state.value);
            else if (state.kind === "empty") onSubmit(null);
          }
        }}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          const nextState = readDateText(next, locale_, isDayDisabled);
          onChange?.(nextState.kind === "valid" ? nextState.value : null, nextState.kind);
        }}
        onBlur={() => {
          setTouched(true);
          // A valid day is written back in full (1/2/25 becomes 1/2/2025): what was understood.
          if (state.kind !== "empty" && state.kind !== "invalid")
            setText(formatShortDate(state.value, locale_));
        }}
      />
      {shownError ? (
        <p id={errorId} className="field-error" role="alert">
          {shownError}
        </p>
      ) : null}
    </div>
  );
}
