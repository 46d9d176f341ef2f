// The basket's controls, shared by Select plan and the Change dialog: Basic or Custom, and for
// Custom the extra blocks and emails. A typed count is rounded (spec: by 4 and by 1000, up when
// growing, down when shrinking, negatives ignored) when the field is left or Enter is pressed;
// the steppers move by whole steps at once.
import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  basketFor,
  PLAN_RULES,
  shownBlocks,
  shownEmails,
  withBlocks,
  withEmails,
  type Basket,
} from '../model/plans';
import { useLang } from '../model/use-lang';

interface CountFieldProps {
  label: string;
  hint: string;
  value: number;
  step: number;
  max: number;
  onCommit: (typed: number) => void;
  name: string;
}

function CountField({ label, hint, value, step, max, onCommit, name }: CountFieldProps) {
  const id = useId();
  const hintId = useId();
  // what is being typed; null shows the count (an ignored value, negative or not a number, goes
  // back to the count when the field is left)
  const [draft, setDraft] = useState<string | null>(null);
  const commit = () => {
    if (draft === null) return;
    onCommit(draft.trim() === '' ? Number.NaN : Number(draft));
    setDraft(null);
  };
  return (
    <div className="field plan-count">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="number"
        inputMode="numeric"
        min={0}
        max={max}
        step={step}
        value={draft ?? String(value)}
        aria-describedby={hintId}
        onChange={(event) => {
          const next = event.target.value;
          setDraft(next);
          const n = Number(next);
          // the steppers (and typing a whole step) apply at once
          if (next !== '' && Number.isInteger(n) && n >= 0 && n % step === 0 && n <= max) {
            onCommit(n);
            setDraft(null);
          }
        }}
        onBlur={commit}
        onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            commit();
          }
        }}
      />
      <span id={hintId} className="hint">
        {hint}
      </span>
    </div>
  );
}

export function PlanFields({
  basket,
  onChange,
  dollars = false,
}: {
  basket: Basket;
  onChange: (b: Basket) => void;
  /** Prices of this route are in dollars (PayPal), whatever the language. */
  dollars?: boolean;
}) {
  const { t: s } = useTranslation(undefined, { keyPrefix: 'plans' });
  const name = useId();
  const { lang, fmt } = useLang();
  return (
    <div className="plan-fields">
      <fieldset className="plan-types">
        <legend>{s('select.typeLabel')}</legend>
        {(['basic', 'custom'] as const).map((type) => (
          <label
            key={type}
            className={`plan-type${basket.type === type ? ' plan-type-selected' : ''}`}
          >
            <input
              type="radio"
              name={name}
              value={type}
              checked={basket.type === type}
              onChange={() => onChange(basketFor(type, basket))}
            />
            <span className="plan-type-name">{s(`types.${type}`)}</span>
            <span className="plan-type-line">
              {type === 'basic'
                ? s('select.basicLine', {
                    blocks: shownBlocks(PLAN_RULES.basic.blockLimit),
                    emails: fmt(shownEmails(PLAN_RULES.basic.responseMonthlyLimit)),
                  })
                : lang === 'ko' && !dollars
                  ? s('select.customLineKo')
                  : s('select.customLine')}
            </span>
          </label>
        ))}
      </fieldset>
      {basket.type === 'custom' ? (
        <div className="plan-counts">
          <CountField
            name="blocks"
            label={s('select.blocks')}
            hint={s('select.blocksHint', {
              max: fmt(PLAN_RULES.maxBlockLimit),
              total: fmt(shownBlocks(basket.blockLimit)),
            })}
            value={basket.blockLimit}
            step={PLAN_RULES.blocksPerUnit}
            max={PLAN_RULES.maxBlockLimit}
            onCommit={(typed) => onChange(withBlocks(basket, typed))}
          />
          <CountField
            name="emails"
            label={s('select.emails')}
            hint={s('select.emailsHint', {
              max: fmt(PLAN_RULES.maxResponseMonthlyLimit),
              total: fmt(shownEmails(basket.responseMonthlyLimit)),
            })}
            value={basket.responseMonthlyLimit}
            step={PLAN_RULES.emailsPerUnit}
            max={PLAN_RULES.maxResponseMonthlyLimit}
            onCommit={(typed) => onChange(withEmails(basket, typed))}
          />
        </div>
      ) : null}
    </div>
  );
}
