// The share of each option of a poll or A/B question: the option's text, its count and share
// as words, and an SVG bar of that share. The words are the text alternative; the bar repeats
// them for the eye and is hidden from assistive technology.
import { useTranslation } from 'react-i18next';
import type { TSummaryQuestion } from '../../api/results-summary';

/** Share of `count` in `of`, in whole percent (0 when nobody answered). */
export function share(count: number, of: number): number {
  return of > 0 ? Math.round((count / of) * 100) : 0;
}

export function OptionBars({ question }: { question: TSummaryQuestion }) {
  const { t } = useTranslation();
  const options = question.options ?? [];
  const top = options.reduce((m, o) => Math.max(m, o.count), 0);
  return (
    <ul className="option-bars">
      {options.map((option) => {
        const pct = share(option.count, question.answered);
        return (
          <li key={option.id} className="option-bar" data-top={top > 0 && option.count === top}>
            <span className="option-bar-label">
              {option.value || t('results.summary.emptyOption')}
              {option.deleted ? (
                <span className="hint"> {t('results.summary.deletedOption')}</span>
              ) : null}
            </span>
            <span className="option-bar-figure">
              {t('results.summary.optionFigure', { pct, count: option.count })}
            </span>
            <svg className="option-bar-track" aria-hidden="true" width="100%" height="10">
              <rect className="option-bar-bg" x="0" y="0" width="100%" height="10" rx="5" />
              {pct > 0 ? (
                <rect
                  className="option-bar-fill"
                  x="0"
                  y="0"
                  width={`${pct}%`}
                  height="10"
                  rx="5"
                />
              ) : null}
            </svg>
          </li>
        );
      })}
    </ul>
  );
}
