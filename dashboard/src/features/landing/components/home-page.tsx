import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { REACTION_TYPES } from '../../../lib/db-types';
import { ProductDemo } from './product-demo';
import { PageHeading } from '../../../components/ui/page-heading';
import { BlockTypeIcon } from '../../../components/ui/block-type-icon';

const HISTORY_TIMES = ['09:12', '10:47', '13:05', '16:38'];

export function HomePage() {
  const { t } = useTranslation();
  return (
    <>
      <section className="hero">
        <div className="hero-text">
          <PageHeading>{t('home.heroTitle')}</PageHeading>
          <p>{t('home.heroText')}</p>
          <Link to={paths.login} className="button button-primary button-large">
            {t('home.heroCta')}
          </Link>
        </div>
        <ProductDemo />
      </section>

      <section className="section" aria-labelledby="steps-title">
        <h2 id="steps-title">{t('home.stepsTitle')}</h2>
        <ol className="steps">
          {([1, 2, 3] as const).map((n) => (
            <li key={n} className="step">
              <h3>{t(`home.step${n}Title`)}</h3>
              <p>{t(`home.step${n}Text`)}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="section" aria-labelledby="blocks-title">
        <h2 id="blocks-title">{t('home.blocksTitle')}</h2>
        <ul className="block-grid">
          {REACTION_TYPES.map((type) => (
            <li key={type}>
              <Link className="block-grid-item" to={`${paths.reaction}?focus=${type}`}>
                <BlockTypeIcon type={type} />
                <strong>{t(`blockTypes.${type}`)}</strong>
                <span>{t(`home.blockText.${type}`)}</span>
              </Link>
            </li>
          ))}
        </ul>
        <p className="block-grid-more">
          <Link to={paths.showcase}>{t('home.showcaseLink')}</Link>
        </p>
      </section>

      <section className="section feature-split" aria-labelledby="history-title">
        <div>
          <h2 id="history-title">{t('home.historyTitle')}</h2>
          <p>{t('home.historyText')}</p>
        </div>
        <ul className="history-mock" aria-hidden="true">
          {REACTION_TYPES.slice(0, 4).map((type, i) => (
            <li key={type}>
              <BlockTypeIcon type={type} />
              <span>{t(`blockTypes.${type}`)}</span>
              {/* a day's log: times, not dates that age (it said 24.01.10 to 24.04.13) */}
              <time>{HISTORY_TIMES[i]}</time>
            </li>
          ))}
        </ul>
      </section>

      <section className="section cta-section">
        <h2>{t('home.ctaTitle')}</h2>
        <Link to={paths.login} className="button button-primary button-large">
          {t('home.ctaButton')}
        </Link>
      </section>
    </>
  );
}
