import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useState } from "react";
import { fromTwelveHour, toTwelveHour, type DayPeriod } from "../../../core/survey-engine/answer-values.ts";

export type TimeFormat = "24h" | "12h";

type TimeFieldsProps = {
  /** 24 hour (HH:mm, the default) or 12 hour (hh:mm AM/PM), without seconds (spec 02 §5). */
  format: TimeFormat;
  /** The time shown first, "HH:mm", or "" for none. */
  initialTime: string;
  /** Every change: "HH:mm" once every part is chosen, else null. */
  onTimeChange: (time: string | null) => void;
  /** The ids of what names the time (the question label, and "Time" in a datetime). */
  labelledBy: string;
  describedBy?: string | undefined;
  readOnly?: boolean | undefined;
};

const pad2 = (value: number) => String(value).padStart(2, "0");
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => pad2(from + index));
const HOURS_24 = range(0, 23);
const HOURS_12 = range(1, 12);
const MINUTES = range(0, 59);

type Parts = { hour: string; minute: string; period: DayPeriod | "" };

function initialParts(format: TimeFormat, time: string): Parts {
  if (format === "12h") return toTwelveHour(time) ?? { hour: "", minute: "", period: "" };
  const [hour = "", minute = ""] = time ? time.split(":") : [];
  return { hour, minute, period: "" };
}

function timeOf(format: TimeFormat, parts: Parts) {
  if (format === "12h") {
    return fromTwelveHour({ hour: parts.hour, minute: parts.minute, period: parts.period || undefined });
  }
  return parts.hour && parts.minute ? `${parts.hour}:${parts.minute}` : null;
}

/**
 * A time picker made of native selects (hour, minute and, on a 12 hour clock, AM or PM): every
 * browser shows the clock the definition asks for, and each part is a labelled control that the
 * keyboard drives (arrows, or typing "3" "0" for 30).
 */
export function TimeFields({
  format,
  initialTime,
  onTimeChange,
  labelledBy,
  describedBy,
  readOnly = false,
}: TimeFieldsProps) {
  const { t } = useLingui();
  const id = useId();
  const [parts, setParts] = useState<Parts>(() => initialParts(format, initialTime));

  const change = (part: keyof Parts, value: string) => {
    const next = { ...parts, [part]: value } as Parts;
    setParts(next);
    onTimeChange(timeOf(format, next));
  };

  const empty = <option value="">--</option>;
  return (
    <div role="group" aria-labelledby={labelledBy} aria-describedby={describedBy} className="time-fields">
      <div className="time-fields__part">
        <label htmlFor={`${id}-hour`}>
          <Trans id="question_time_hour">Hour</Trans>
        </label>
        <select
          id={`${id}-hour`}
          value={parts.hour}
          disabled={readOnly}
          onChange={(event) => change("hour", event.target.value)}
        >
          {empty}
          {(format === "12h" ? HOURS_12 : HOURS_24).map((hour) => (
            <option key={hour} value={hour}>
              {hour}
            </option>
          ))}
        </select>
      </div>
      <span className="time-fields__colon" aria-hidden="true">
        :
      </span>
      <div className="time-fields__part">
        <label htmlFor={`${id}-minute`}>
          <Trans id="question_time_minute">Minute</Trans>
        </label>
        <select
          id={`${id}-minute`}
          value={parts.minute}
          disabled={readOnly}
          onChange={(event) => change("minute", event.target.value)}
        >
          {empty}
          {MINUTES.map((minute) => (
            <option key={minute} value={minute}>
              {minute}
            </option>
          ))}
        </select>
      </div>
      {format === "12h" ? (
        <div className="time-fields__part">
          <label htmlFor={`${id}-period`}>
            <Trans id="question_time_period">AM or PM</Trans>
          </label>
          <select
            id={`${id}-period`}
            value={parts.period}
            disabled={readOnly}
            onChange={(event) => change("period", event.target.value)}
          >
            {empty}
            <option value="AM">{t({ id: "question_time_am", message: "AM" })}</option>
            <option value="PM">{t({ id: "question_time_pm", message: "PM" })}</option>
          </select>
        </div>
      ) : null}
    </div>
  );
}
