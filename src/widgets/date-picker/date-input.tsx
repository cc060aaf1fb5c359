/**
 * The date input (spec 02 sections 4 and 5): a text field in the locale's short date format that
 * accepts only digits, the format's separators and editing keys; Enter submits a valid day; a
 * text that does not parse is marked invalid, and so is a day the caller disabled.
 */
import { useLingui as useLinguiRuntime } from "@lingui/react";
import { Trans } from "@lingui/react/macro";
import { useId, useState, type ReactNode } from "react";
import { isAllowedDateKey, readDateText, shortDateFormat, type DayOfYear } from "./date-text.ts";
import "../widgets.css";

export type DateInputProps = {
  label: ReactNode;
  /** The typed text (controlled); the caller keeps it. */
  defaultText?: string;
  /** Called with the day on Enter, when the text is a valid, enabled day. */
  onSubmit: (value: DayOfYear) => void;
  /** Called on every change with the day, or null when empty or invalid. */
  onChange?: (value: DayOfYear | null) => void;
  isDayDisabled?: (value: DayOfYear) => boolean;
  /** The locale whose short format is read; the interface's by default. */
  locale?: string;
};

export function DateInput({
  label,
  defaultText = "",
  onSubmit,
  onChange,
  isDayDisabled,
  locale,
}: DateInputProps) {
  const { i18n } = useLinguiRuntime();
  const dateLocale = locale ?? i18n.locale;
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const [text, setText] = useState(defaultText);
  const [touched, setTouched] = useState(defaultText !== "");
  const state = readDateText(text, dateLocale, isDayDisabled);
  const example = shortDateFormat(dateLocale).example;
  const showError = touched && (state.kind === "invalid" || state.kind === "disabled");
  return (
    <div className="rac-field">
      <label htmlFor={inputId} className="rac-field__label">
        {label}
      </label>
      <span id={hintId} className="rac-field__description">
        <Trans id="widget_date_hint">For example {example}</Trans>
      </span>
      <input
        id={inputId}
        className="rac-input"
        inputMode="numeric"
        autoComplete="off"
        value={text}
        aria-invalid={showError}
        aria-describedby={showError ? `${hintId} ${errorId}` : hintId}
        onKeyDown={(event) => {
          if (event.ctrlKey || event.metaKey || event.altKey) return;
          if (!isAllowedDateKey(event.key, dateLocale)) {
            event.preventDefault();
            return;
          }
          if (event.key === "Enter") {
            event.preventDefault();
            setTouched(true);
            if (state.kind === "valid") onSubmit(state.value);
          }
        }}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          const nextState = readDateText(next, dateLocale, isDayDisabled);
          onChange?.(nextState.kind === "valid" ? nextState.value : null);
        }}
        onBlur={() => setTouched(true)}
      />
      {showError ? (
        <p id={errorId} className="field-error" role="alert">
          {state.kind === "disabled" ? (
            <Trans id="widget_date_disabled">This day cannot be chosen.</Trans>
          ) : (
            <Trans id="widget_date_invalid">Enter a date like {example}.</Trans>
          )}
        </p>
      ) : null}
    </div>
  );
}
