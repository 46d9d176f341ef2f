// A usage gauge (blocks, emails this month), capped at 100% (spec), with its label and value in
// the reader's language (`plans.usage`).
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { usagePercent } from '../model/plans';
import { useLang } from '../model/use-lang';

export function UsageGauge({
  count,
  used,
  limit,
  hint,
}: {
  /** What is counted: names the label (`usage.blocks`) and the value (`usage.blocksValue`). */
  count: 'blocks' | 'emails';
  used: number;
  limit: number;
  /** What is counted, where the label alone does not say it (the meter's description). */
  hint?: string;
}) {
  const { t: s } = useTranslation(undefined, { keyPrefix: 'plans.usage' });
  const { fmt } = useLang();
  const id = useId();
  const hintId = `${id}-hint`;
  const percent = usagePercent(used, limit);
  const valueText = s(`${count}Value`, { used: fmt(used), limit: fmt(limit) });
  return (
    <div className="usage-gauge">
      <div className="usage-gauge-head">
        <span id={id} className="usage-gauge-label">
          {s(count)}
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
