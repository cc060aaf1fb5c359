/**
 * The percent meter (spec 02 sections 5 and 9): the floor of ratio × 100 as text and as a bar
 * whose colour blends from a yellow-orange at 0 to a green tint at 1. A plain role="meter"
 * (no library: it sits on pages of the first download).
 */
import { useId, type ReactNode } from "react";
import { percentColour, percentOf } from "./meter-rules.ts";
import "./meter.css";

export type PercentMeterProps = { label: ReactNode; ratio: number };

export function PercentMeter({ label, ratio }: PercentMeterProps) {
  const labelId = useId();
  const percent = percentOf(ratio);
  return (
    <div
      className="meter"
      role="meter"
      aria-labelledby={labelId}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={`${percent} %`}
    >
      <div className="meter__head">
        <span id={labelId} className="meter__label">
          {label}
        </span>
        <span className="meter__value" aria-hidden="true">
          {percent} %
        </span>
      </div>
      <div className="meter__track" aria-hidden="true">
        <div className="meter__fill" style={{ width: `${percent}%`, background: percentColour(ratio) }} />
      </div>
    </div>
  );
}
