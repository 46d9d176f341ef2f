// The summary above a block's results: totals, responses over time, and per question the share
// of each option (poll, A/B), count/mean/median (number) or the latest answers (text). One
// database call computes it (block_results_summary), however many responses there are.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../../components/ui/spinner';
import { formatDate } from '../../../../lib/dates';
import { failureReason } from '../../../../lib/errors';
import type { ResultsApi } from '../api/results-api';
import type { TSummaryQuestion } from '../api/results-summary';
import { useResultsSummary } from '../hooks/use-results-summary';
import type { ResultsBlock } from '../types';
import { OptionBars } from './charts/option-bars';
import { TimelineChart } from './charts/timeline-chart';

const TEXT_TYPES = new Set(['short_text', 'long_text', 'mail', 'phone']);

export interface ResultsSummaryProps {
  block: ResultsBlock;
  api: Pick<ResultsApi, 'summary'>;
  /** Responses that arrived since the owner last opened the results (read before the reset). */
  newSinceLastVisit?: number;
  /** Where the summary's heading sits in the page outline. */
  headingLevel?: 2 | 3;
}

function NumberFigures({ question }: { question: TSummaryQuestion }) {
  const { t, i18n } = useTranslation();
  const n = question.number;
  if (!n || n.count === 0) return <p className="hint">{t('results.summary.noNumbers')}</p>;
  const format = (value: number | null) =>
    value === null
      ? '–'
      : new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 }).format(value);
  const figures: [key: string, value: string][] = [
    ['count', format(n.count)],
    ['mean', format(n.mean)],
    ['median', format(n.median)],
    ['range', t('results.summary.rangeValue', { min: format(n.min), max: format(n.max) })],
  ];
  return (
    <dl className="summary-figures">
      {figures.map(([key, value]) => (
        <div key={key}>
          <dt>{t(`results.summary.${key}`)}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function LatestAnswers({ question }: { question: TSummaryQuestion }) {
  const { t } = useTranslation();
  const latest = question.latest ?? [];
  if (latest.length === 0) return <p className="hint">{t('results.summary.noAnswers')}</p>;
  return (
    <ul className="summary-latest" aria-label={t('results.summary.latest')}>
      {latest.map((answer, i) => (
        <li key={`${answer.created_at}-${i}`}>
          <span className="summary-latest-text">{answer.value}</span>
          <time className="hint" dateTime={answer.created_at}>
            {formatDate(answer.created_at, { time: 'minutes' })}
          </time>
        </li>
      ))}
    </ul>
  );
}

function QuestionSummary({
  question,
  total,
  level,
}: {
  question: TSummaryQuestion;
  total: number;
  level: 3 | 4;
}) {
  const { t } = useTranslation();
  const Heading = level === 3 ? 'h3' : 'h4';
  const choice = question.type === 'poll' || question.type === 'ab';
  return (
    <article className="summary-question" data-type={question.type}>
      <Heading className="summary-question-title">
        {question.title.trim() || t('results.summary.untitledQuestion')}
      </Heading>
      <p className="hint summary-question-answered">
        {t('results.summary.answered', { count: question.answered, total })}
      </p>
      {choice && question.multi ? (
        <p className="hint summary-question-multi">{t('results.summary.multi')}</p>
      ) : null}
      {choice ? <OptionBars question={question} /> : null}
      {question.type === 'number' ? <NumberFigures question={question} /> : null}
      {TEXT_TYPES.has(question.type) ? <LatestAnswers question={question} /> : null}
    </article>
  );
}

export function ResultsSummary({
  block,
  api,
  newSinceLastVisit = 0,
  headingLevel = 2,
}: ResultsSummaryProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const summary = useResultsSummary(block.id, api);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const data = summary.data;
  const noun = t(`results.summary.noun.${block.type}`, {
    defaultValue: t('results.summary.noun.form'),
  });
  const counted = (count: number) =>
    t(`results.summary.counted.${block.type}`, {
      count,
      defaultValue: t('results.summary.counted.form', { count }),
    });

  if (!data) {
    return (
      <section className="results-summary" aria-labelledby={headingId} aria-busy={!summary.error}>
        <Heading id={headingId} className="results-summary-title">
          {t('results.summary.title')}
        </Heading>
        {summary.error ? (
          <div role="alert" className="results-error">
            <p className="error-text">
              {t('results.summary.loadError', { message: failureReason(summary.error) })}
            </p>
            <button type="button" className="button" onClick={() => void summary.refetch()}>
              {t('common.retry')}
            </button>
          </div>
        ) : (
          <Spinner label={t('results.summary.loading')} />
        )}
      </section>
    );
  }
  const { totals } = data;
  // nothing to summarise yet: the list's empty state says so
  if (totals.responses === 0 && totals.held === 0) return null;

  return (
    <section className="results-summary" aria-labelledby={headingId}>
      <Heading id={headingId} className="results-summary-title">
        {t('results.summary.title')}
      </Heading>
      <dl className="summary-totals">
        <div>
          <dt>
            {t(`results.summary.total.${block.type}`, {
              defaultValue: t('results.summary.total.form'),
            })}
          </dt>
          <dd>{totals.responses.toLocaleString()}</dd>
        </div>
        <div>
          <dt>{t('results.summary.last7')}</dt>
          <dd>{totals.last_7_days.toLocaleString()}</dd>
        </div>
        {totals.held > 0 ? (
          <div>
            <dt>{t('results.summary.held')}</dt>
            <dd>{totals.held.toLocaleString()}</dd>
          </div>
        ) : null}
        {newSinceLastVisit > 0 ? (
          <div>
            <dt>{t('results.summary.newSince')}</dt>
            <dd>{newSinceLastVisit.toLocaleString()}</dd>
          </div>
        ) : null}
        {totals.last_at ? (
          <div className="summary-total-time">
            <dt>{t('results.summary.latestAt')}</dt>
            <dd>
              <time dateTime={totals.last_at}>
                {formatDate(totals.last_at, { time: 'minutes' })}
              </time>
            </dd>
          </div>
        ) : null}
      </dl>
      <TimelineChart
        points={data.timeline.points}
        unit={data.timeline.unit}
        noun={noun}
        counted={counted}
      />
      {data.questions.length > 0 ? (
        <div className="summary-questions">
          {data.questions.map((question) => (
            <QuestionSummary
              key={question.id}
              question={question}
              total={totals.responses}
              level={headingLevel === 2 ? 3 : 4}
            />
          ))}
        </div>
      ) : null}
    </section>
  );
}
