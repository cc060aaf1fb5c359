/**
 * The ratio meter (spec 02 section 5): done of total as a two-part bar with both percents;
 * 0 % for both when the total is 0. A plain role="meter" (no library: it sits on the
 * participant page, part of the first download).
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, type ReactNode } from "react";
import { ratioParts } from "./meter-rules.ts";
import "./meter.css";

export type RatioMeterProps = { label: ReactNode; done: number; total: number };

export function RatioMeter({ label, done, total }: RatioMeterProps) {
  const { t } = useLingui();
  const labelId = useId();
  const parts = ratioParts(done, total);
  const { donePercent, remainingPercent } = parts;
  const doneCount = parts.done;
  const totalCount = parts.total;
  return (
    <div
      className="meter meter--ratio"
      role="meter"
      aria-labelledby={labelId}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={donePercent}
      aria-valuetext={t({
        id: "widget_ratio_meter_valuetext",
        message: `${doneCount} of ${totalCount} (${donePercent} %)`,
      })}
    >
      <div className="meter__head">
        <span id={labelId} className="meter__label">
          {label}
        </span>
        <span className="meter__value" aria-hidden="true">
          <Trans id="widget_ratio_meter_value">
            {doneCount} of {totalCount}
          </Trans>
        </span>
      </div>
      <div className="meter__track" aria-hidden="true">
        <div className="meter__fill meter__fill--done" style={{ width: `${donePercent}%` }} />
        <div className="meter__fill meter__fill--remaining" style={{ width: `${remainingPercent}%` }} />
      </div>
      <div className="meter__legend" aria-hidden="true">
        <span>
          <Trans id="widget_ratio_meter_done">{donePercent} % done</Trans>
        </span>
        <span>
          <Trans id="widget_ratio_meter_remaining">{remainingPercent} % to do</Trans>
        </span>
      </div>
    </div>
  );
}
