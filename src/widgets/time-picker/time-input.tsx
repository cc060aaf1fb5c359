/**
 * The time picker (spec 02 section 5): a text field for a time in 24 h (HH:mm) or 12 h
 * (hh:mm A), without seconds; the locale's clock by default. Every change reports the time typed
 * (or null while it is not one); leaving the field, or Enter, rewrites a valid time in the format
 * and marks an invalid one.
 */
import { Trans } from "@lingui/react/macro";
import { useId, useState, type ReactNode } from "react";
import { dateLocale } from "../../i18n/format-date.ts";
import {
  formatTime,
  localeTimeFormat,
  parseTime,
  TIME_PATTERN,
  type TimeFormat,
  type TimeOfDay,
} from "./time-format.ts";
import "../widgets.css";

export type TimeInputProps = {
  label: ReactNode;
  value: TimeOfDay | null;
  onChange: (value: TimeOfDay | null) => void;
  /** The clock; the browser language's by default (12 h in en-US, 24 h in en-GB, fr, de). */
  format?: TimeFormat;
  id?: string | undefined;
  /** The caller's own problem (required, too late), said when the field has none. */
  error?: ReactNode;
  required?: boolean | undefined;
  className?: string | undefined;
};

export function TimeInput({
  label,
  value,
  onChange,
  format,
  id,
  error,
  required,
  className,
}: TimeInputProps) {
  const timeFormat = format ?? localeTimeFormat(dateLocale());
  const madeId = useId();
  const inputId = id ?? madeId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const [text, setText] = useState(value ? formatTime(value, timeFormat) : "");
  const [invalid, setInvalid] = useState(false);
  const pattern = TIME_PATTERN[timeFormat];
  const commit = () => {
    if (!text.trim()) {
      setInvalid(false);
      onChange(null);
      return;
    }
    const parsed = parseTime(text, timeFormat);
    setInvalid(parsed === null);
    if (parsed) setText(formatTime(parsed, timeFormat));
    onChange(parsed);
  };
  const shownError = invalid ? <Trans id="widget_time_invalid">Enter a time as {pattern}.</Trans> : error;
  return (
    <div className={["field", "time-input", className].filter(Boolean).join(" ")}>
      <label htmlFor={inputId}>{label}</label>
      <span id={hintId} className="rac-field__description">
        <Trans id="widget_time_hint">Format {pattern}</Trans>
      </span>
      <input
        id={inputId}
        className="rac-input"
        autoComplete="off"
        spellCheck={false}
        value={text}
        required={required}
        aria-invalid={shownError ? true : undefined}
        aria-describedby={shownError ? `${hintId} ${errorId}` : hintId}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          if (invalid && parseTime(next, timeFormat)) setInvalid(false);
          onChange(parseTime(next, timeFormat));
        }}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === "Enter") commit();
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
