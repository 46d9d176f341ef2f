// One response in the results list: picture, name, time, what they answered, details, delete;
// a response held by escalation (issue 17) is marked, with Approve.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ResponseRow, ResultsQuestion } from '../types';
import { answerText, displayAnswers, type DisplayAnswer } from '../utils/answers';
import { ResponseAvatar } from './response-avatar';
import { formatDate } from '../../../../lib/dates';

export interface ResultRowProps {
  row: ResponseRow;
  questions: readonly ResultsQuestion[];
  onDelete: (row: ResponseRow) => void;
  /** Approves a held response; `approving` while that call runs. */
  onApprove?: (row: ResponseRow) => void;
  approving?: boolean;
}

export function respondentName(row: Pick<ResponseRow, 'creator_name'>, anonymous: string) {
  return row.creator_name?.trim() || anonymous;
}

/** The spec's YY.MM.DD with the time, in the owner's time zone (the same in en and ko). */
export function formatTime(value: string, withSeconds = false) {
  return formatDate(value, { time: withSeconds ? 'seconds' : 'minutes' });
}

export function ResultRow({ row, questions, onDelete, onApprove, approving }: ResultRowProps) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const nameId = useId();
  const detailId = useId();
  const heldId = useId();
  const name = respondentName(row, t('results.anonymous'));
  const answers = row.kind === 'form' || row.kind === 'ab' ? displayAnswers(row, questions) : [];
  const answerTitle = (answer: DisplayAnswer) =>
    answer.orphan ? t('results.deletedQuestion', { title: answer.title }) : answer.title;

  let summary: string;
  if (row.kind === 'like') summary = t('results.liked');
  else if (row.kind === 'button') summary = t('results.clicked');
  else if (answers.length === 0) summary = t('results.noAnswer');
  else summary = answers.map((a) => `${answerTitle(a)}: ${answerText(a.value)}`).join(' · ');

  return (
    <li className="result-row" data-testid="result-row" data-held={row.held || undefined}>
      <div className="result-row-main">
        <ResponseAvatar name={name} photoUrl={row.creator_photo_url} color={row.color} />
        <div className="result-row-text">
          <p className="result-name" id={nameId}>
            {name}
          </p>
          <time className="result-time" dateTime={row.created_at}>
            {formatTime(row.created_at)}
          </time>
          <p className="result-summary">{summary}</p>
          {row.held ? (
            <p className="result-held" id={heldId}>
              <span className="result-held-mark">{t('results.held.mark')}</span>{' '}
              {t('results.held.text')}
            </p>
          ) : null}
        </div>
        <div className="result-row-actions">
          {row.held && onApprove ? (
            <button
              type="button"
              className="button result-approve"
              aria-describedby={`${nameId} ${heldId}`}
              disabled={approving}
              onClick={() => onApprove(row)}
            >
              {approving ? t('results.held.approving') : t('results.held.approve')}
            </button>
          ) : null}
          <button
            type="button"
            className="button button-ghost"
            aria-expanded={expanded}
            aria-controls={detailId}
            aria-describedby={nameId}
            onClick={() => setExpanded((open) => !open)}
          >
            {expanded ? t('results.hideDetails') : t('results.showDetails')}
          </button>
          <button
            type="button"
            className="button button-ghost result-delete"
            aria-describedby={nameId}
            onClick={() => onDelete(row)}
          >
            {t('results.delete')}
          </button>
        </div>
      </div>
      <div className="result-detail" id={detailId} hidden={!expanded}>
        {answers.length > 0 ? (
          <>
            <h3 className="result-detail-title">{t('results.details.answers')}</h3>
            <dl className="result-answers">
              {answers.map((answer) => (
                <div key={answer.questionId} data-orphan={answer.orphan}>
                  <dt>{answerTitle(answer)}</dt>
                  <dd>
                    {Array.isArray(answer.value) && answer.value.length > 1 ? (
                      <ul>
                        {answer.value.map((value, i) => (
                          <li key={i}>{value}</li>
                        ))}
                      </ul>
                    ) : (
                      answerText(answer.value)
                    )}
                  </dd>
                </div>
              ))}
            </dl>
          </>
        ) : null}
        <dl className="result-meta">
          <div>
            <dt>{t('results.details.submitted')}</dt>
            <dd>{formatTime(row.created_at, true)}</dd>
          </div>
          {row.timezone ? (
            <div>
              <dt>{t('results.details.timezone')}</dt>
              <dd>{row.timezone}</dd>
            </div>
          ) : null}
          <div>
            <dt>{t('results.details.visitor')}</dt>
            <dd className="result-visitor-id">{row.creator_id}</dd>
          </div>
        </dl>
      </div>
    </li>
  );
}
