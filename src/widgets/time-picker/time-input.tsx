/**
 * The time picker (spec 02 section 5): a text field for a time in 24 h (HH:mm) or 12 h
 * (hh:mm A), without seconds; the locale's clock by default. Leaving the field rewrites a valid
 * time in the format and marks an invalid one.
 */
import { useLingui as useLinguiRuntime } from "@lingui/react";
import { Trans } from "@lingui/react/macro";
import { useId, useState, type ReactNode } from "react";
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
  format?: TimeFormat;
};

export function TimeInput({ label, value, onChange, format }: TimeInputProps) {
  const { i18n } = useLinguiRuntime();
  const timeFormat = format ?? localeTimeFormat(i18n.locale);
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
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
  return (
    <div className="rac-field">
      <label htmlFor={inputId} className="rac-field__label">
        {label}
      </label>
      <span id={hintId} className="rac-field__description">
        <Trans id="widget_time_hint">Format {pattern}</Trans>
      </span>
      <input
        id={inputId}
        className="rac-input"
        autoComplete="off"
        value={text}
        aria-invalid={invalid}
        aria-describedby={invalid ? `${hintId} ${errorId}` : hintId}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === "Enter") commit();
        }}
      />
      {invalid ? (
        <p id={errorId} className="field-error" role="alert">
          <Trans id="widget_time_invalid">Enter a time as {pattern}.</Trans>
        </p>
      ) : null}
    </div>
  );
}
