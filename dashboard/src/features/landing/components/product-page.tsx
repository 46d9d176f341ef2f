import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PageHeading } from '../../../components/ui/page-heading';
import { TabPanel, Tabs } from '../../../components/ui/tabs';
import { paths } from '../../../config/paths';
import { useFocusParam } from '../hooks/use-focus-param';

/**
 * A product page (reaction blocks, letters): its heading and lead, the page's own demo in tabs
 * (one a type; the selected one lives in ?focus=, `children` draws it), its features in a grid,
 * then the call to start. `page` names the texts' namespace, the tabs' ids and the features' id.
 */
export function ProductPage<T extends string>({
  page,
  features,
  types,
  fallback,
  aliases,
  tabLabel,
  panelClassName = 'tab-panel',
  focusablePanel = false,
  children,
}: {
  page: 'reaction' | 'send';
  features: readonly string[];
  /** The demo's tabs, in order. */
  types: readonly T[];
  /** The tab without (or with an unknown) ?focus=. */
  fallback: T;
  /** Other spellings of ?focus= (useFocusParam). */
  aliases?: Partial<Record<string, T>>;
  tabLabel: (type: T) => string;
  panelClassName?: string;
  /** The panel in the Tab order itself, when nothing in it can take focus. */
  focusablePanel?: boolean;
  /** The selected tab's demo. */
  children: (selected: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const [selected, select] = useFocusParam(types, fallback, aliases);
  return (
    <>
      <section className="section page-head">
        <PageHeading>{t(`${page}.title`)}</PageHeading>
        <p>{t(`${page}.text`)}</p>
      </section>
      <section className="section">
        <Tabs
          label={t(`${page}.tabsLabel`)}
          idPrefix={page}
          items={types.map((type) => ({ id: type, label: tabLabel(type) }))}
          selected={selected}
          onSelect={select}
        />
        <TabPanel
          idPrefix={page}
          selected={selected}
          className={panelClassName}
          focusable={focusablePanel}
        >
          {children(selected)}
        </TabPanel>
      </section>
      <section className="section" aria-labelledby={`${page}-features`}>
        <h2 id={`${page}-features`}>{t(`${page}.featuresTitle`)}</h2>
        <ul className="feature-grid">
          {features.map((feature) => (
            <li key={feature} className="feature">
              {t(`${page}.features.${feature}`)}
            </li>
          ))}
        </ul>
      </section>
      <section className="section cta-section">
        <Link to={paths.login} className="button button-primary button-large">
          {t(`${page}.cta`)}
        </Link>
      </section>
    </>
  );
}
