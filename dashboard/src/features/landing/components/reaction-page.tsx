import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { tabIds, Tabs } from '../../../components/ui/tabs';
import { paths } from '../../../config/paths';
import { REACTION_TYPES } from '../../../lib/db-types';
import { useFocusParam } from '../hooks/use-focus-param';
import { DemoBlock } from './demo-block';
import { PageHeading } from '../../../components/ui/page-heading';

const FEATURES = ['unlimited', 'notification', 'notion', 'audience', 'style', 'openGraph'] as const;

export function ReactionPage() {
  const { t } = useTranslation();
  const [selected, select] = useFocusParam(REACTION_TYPES, 'comment');
  const ids = tabIds('reaction', selected);
  return (
    <>
      <section className="section page-head">
        <PageHeading>{t('reaction.title')}</PageHeading>
        <p>{t('reaction.text')}</p>
      </section>
      <section className="section">
        <Tabs
          label={t('reaction.tabsLabel')}
          idPrefix="reaction"
          items={REACTION_TYPES.map((type) => ({ id: type, label: t(`blockTypes.${type}`) }))}
          selected={selected}
          onSelect={select}
        />
        <div
          role="tabpanel"
          id={ids.panel}
          aria-labelledby={ids.tab}
          className="tab-panel demo-panel"
          tabIndex={0}
        >
          <p>{t(`home.blockText.${selected}`)}</p>
          <DemoBlock key={selected} type={selected} />
        </div>
      </section>
      <section className="section" aria-labelledby="reaction-features">
        <h2 id="reaction-features">{t('reaction.featuresTitle')}</h2>
        <ul className="feature-grid">
          {FEATURES.map((feature) => (
            <li key={feature} className="feature">
              {t(`reaction.features.${feature}`)}
            </li>
          ))}
        </ul>
      </section>
      <section className="section cta-section">
        <Link to={paths.login} className="button button-primary button-large">
          {t('reaction.cta')}
        </Link>
      </section>
    </>
  );
}
