// A usage gauge (blocks, emails this month), capped at 100% (spec).
import { useId } from 'react';
import { usagePercent } from '../model/plans';

export function UsageGauge({
  label,
  used,
  limit,
  valueText,
  hint,
}: {
  label: string;
  used: number;
  limit: number;
  valueText: string;
  /** What is counted, where the label alone does not say it (the meter's description). */
  hint?: string;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const percent = usagePercent(used, limit);
  return (
    <div className="usage-gauge">
      <div className="usage-gauge-head">
        <span id={id} className="usage-gauge-label">
          {label}
        </span>
        <span className="usage-gauge-value">{valueText}</span>
      </div>
      <div
        className={`usage-gauge-bar${percent >= 100 ? ' usage-gauge-full' : ''}`}
        role="meter"
        aria-labelledby={id}
        aria-describedby={hint ? hintId : undefined}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${valueText} (${percent}%)`}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      {hint ? (
        <p id={hintId} className="usage-gauge-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
