// The basket's controls, shared by Select plan and the Change dialog: Basic or Custom, and for
// Custom the extra blocks and emails. A typed count is taken when the field is left or Enter is
// pressed, rounded as the spec says (by 4 and by 1000, up when growing, down when shrinking), at
// most the maximum; a negative or empty entry keeps the count. When the count taken is not the
// number typed, a note under the field says why (a polite status, so a screen reader hears it
// without focus moving). The steppers move by whole steps at once.
import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  basketFor,
  countChange,
  PLAN_RULES,
  shownBlocks,
  shownEmails,
  withBlocks,
  withEmails,
  type Basket,
  type CountChange,
} from '../model/plans';
import { useLang } from '../model/use-lang';

interface CountFieldProps {
  /** Which count: names its label, hint and notes (`plans.select`) and its step and maximum. */
  name: 'blocks' | 'emails';
  value: number;
  /** The count with the Starter's included, as the hint says it. */
  total: number;
  /** Applies a typed count and answers the count the basket took. */
  onCommit: (typed: number) => number;
}

/** Each count's step and maximum, from the plan rules the payment functions use. */
const COUNT_RULES = {
  blocks: { step: PLAN_RULES.blocksPerUnit, max: PLAN_RULES.maxBlockLimit },
  emails: { step: PLAN_RULES.emailsPerUnit, max: PLAN_RULES.maxResponseMonthlyLimit },
};

interface CountNote {
  change: CountChange;
  typed: number;
  previous: number;
  taken: number;
}

function CountField({ name, value, total, onCommit }: CountFieldProps) {
  const { t: s } = useTranslation(undefined, { keyPrefix: 'plans.select' });
  const { fmt } = useLang();
  const { step, max } = COUNT_RULES[name];
  const id = useId();
  const hintId = useId();
  const noteId = useId();
  // what is being typed; null shows the count (an entry that is not a count goes back to the
  // count when the field is left, and the note says so)
  const [draft, setDraft] = useState<string | null>(null);
  const [note, setNote] = useState<CountNote | null>(null);
  const commit = () => {
    if (draft === null) return;
    const typed = draft.trim() === '' ? Number.NaN : Number(draft);
    const taken = onCommit(typed);
    const change = countChange(typed, taken, max);
    setNote(change ? { change, typed, previous: value, taken } : null);
    setDraft(null);
  };
  return (
    <div className="field plan-count">
      <label htmlFor={id}>{s(name)}</label>
      <input
        id={id}
        name={name}
        type="number"
        inputMode="numeric"
        min={0}
        max={max}
        step={step}
        value={draft ?? String(value)}
        aria-describedby={`${hintId} ${noteId}`}
        onChange={(event) => {
          const next = event.target.value;
          setDraft(next);
          setNote(null);
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
        {s(`${name}Hint`, { max: fmt(max), total: fmt(total) })}
      </span>
      {/* always in the page, so the change of its text is announced */}
      <span id={noteId} className="hint plan-count-note" role="status">
        {note
          ? s(`${name}Note.${note.change}`, {
              // every digit typed: rounded to 3 as counts are, 12.0004 "became 12" (break8 F4)
              typed: fmt(note.typed, { maximumFractionDigits: 20 }),
              previous: fmt(note.previous),
              value: fmt(note.taken),
              max: fmt(max),
            })
          : null}
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
  /** A typed count's basket, handed up: its count is what the field shows. */
  const take = (next: Basket) => {
    onChange(next);
    return next;
  };
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
            value={basket.blockLimit}
            total={shownBlocks(basket.blockLimit)}
            onCommit={(typed) => take(withBlocks(basket, typed)).blockLimit}
          />
          <CountField
            name="emails"
            value={basket.responseMonthlyLimit}
            total={shownEmails(basket.responseMonthlyLimit)}
            onCommit={(typed) => take(withEmails(basket, typed)).responseMonthlyLimit}
          />
        </div>
      ) : null}
    </div>
  );
}
