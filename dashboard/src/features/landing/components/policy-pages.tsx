// The app's own Terms & Privacy and Cookie policy pages: where the footer's policy links go
// until the operator sets SITE_TERMS_URL / SITE_COOKIE_URL (config/site.ts). They say what this
// software does with data, in the reader's language; an operator with legal texts of their own
// links those instead.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PageHeading } from '../../../components/ui/page-heading';
import { TextList } from '../../../components/ui/text-list';
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
          <TextList lines={section.items} />
        </section>
      ))}
    </>
  );
}

/**
 * A policy page: its heading and introduction, what `children` add, its sections, and a link to
 * the other policy.
 */
function PolicyPage({
  policy,
  other,
  children,
}: {
  policy: 'terms' | 'cookies';
  other: { to: string; label: string };
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <article className="section page-head policy-page">
      <PageHeading>{t(`policies.${policy}.title`)}</PageHeading>
      <p>{t(`policies.${policy}.intro`)}</p>
      {children}
      <Sections prefix={`policies.${policy}`} />
      <p>
        <Link to={other.to}>{other.label}</Link>
      </p>
    </article>
  );
}

export function TermsPage() {
  const { t } = useTranslation();
  return (
    <PolicyPage policy="terms" other={{ to: paths.cookies, label: t('footer.cookie') }}>
      {/* the same terms the consent step shows */}
      <section className="policy-section">
        <h2>{t('policies.terms.termsTitle')}</h2>
        <TextList ordered lines={t('consent.terms', { returnObjects: true }) as string[]} />
      </section>
    </PolicyPage>
  );
}

export function CookiePage() {
  const { t } = useTranslation();
  return <PolicyPage policy="cookies" other={{ to: paths.terms, label: t('footer.terms') }} />;
}
