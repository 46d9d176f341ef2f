import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PageHeading } from '../../../components/ui/page-heading';
import { paths } from '../../../config/paths';

/**
 * A product page (reaction blocks, letters): its heading and lead, the page's own demo
 * (`children`), its features in a grid, then the call to start. `page` names the texts'
 * namespace and the features' id.
 */
export function ProductPage({
  page,
  features,
  children,
}: {
  page: 'reaction' | 'send';
  features: readonly string[];
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <section className="section page-head">
        <PageHeading>{t(`${page}.title`)}</PageHeading>
        <p>{t(`${page}.text`)}</p>
      </section>
      {children}
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
