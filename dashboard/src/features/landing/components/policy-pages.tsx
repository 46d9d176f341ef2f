// The app's own Terms & Privacy and Cookie policy pages: where the footer's policy links go
// until the operator sets SITE_TERMS_URL / SITE_COOKIE_URL (config/site.ts). They say what this
// software does with data, in the reader's language; an operator with legal texts of their own
// links those instead.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PageHeading } from '../../../components/ui/page-heading';
import { paths } from '../../../config/paths';

function Sections({ prefix }: { prefix: 'policies.terms' | 'policies.cookies' }) {
  const { t } = useTranslation();
  const sections = t(`${prefix}.sections`, { returnObjects: true }) as {
    title: string;
    items: string[];
  }[];
  return (
    <>
      {sections.map((section) => (
        <section key={section.title} className="policy-section">
          <h2>{section.title}</h2>
          <ul>
            {section.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}

export function TermsPage() {
  const { t } = useTranslation();
  return (
    <article className="section page-head policy-page">
      <PageHeading>{t('policies.terms.title')}</PageHeading>
      <p>{t('policies.terms.intro')}</p>
      {/* the same terms the consent step shows */}
      <section className="policy-section">
        <h2>{t('policies.terms.termsTitle')}</h2>
        <ol>
          {(t('consent.terms', { returnObjects: true }) as string[]).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ol>
      </section>
      <Sections prefix="policies.terms" />
      <p>
        <Link to={paths.cookies}>{t('footer.cookie')}</Link>
      </p>
    </article>
  );
}

export function CookiePage() {
  const { t } = useTranslation();
  return (
    <article className="section page-head policy-page">
      <PageHeading>{t('policies.cookies.title')}</PageHeading>
      <p>{t('policies.cookies.intro')}</p>
      <Sections prefix="policies.cookies" />
      <p>
        <Link to={paths.terms}>{t('footer.terms')}</Link>
      </p>
    </article>
  );
}
