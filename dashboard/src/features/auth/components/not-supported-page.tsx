// /not_supported: where every path goes when the browser keeps no local storage (spec: a sorry
// page with a description). It says what to change, step by step, and that shared blocks work
// anyway; Reload starts again from the home page.
import { useTranslation } from 'react-i18next';
import { PublicPage, PublicPicture } from '../../../components/layouts/public-page';
import { PageHeading } from '../../../components/ui/page-heading';
import { TextList } from '../../../components/ui/text-list';

export function NotSupportedPage() {
  const { t } = useTranslation();
  const host = typeof location === 'undefined' ? '' : location.host;
  const steps = t('notSupported.steps', { returnObjects: true, host }) as string[];
  return (
    <PublicPage className="not-supported-page" note={t('notSupported.footer')}>
      <div className="public-card">
        <PublicPicture kind="storage" />
        <PageHeading>{t('notSupported.title')}</PageHeading>
        <p className="public-lead">{t('notSupported.text')}</p>
        <section className="public-steps" aria-labelledby="not-supported-steps">
          <h2 id="not-supported-steps">{t('notSupported.stepsTitle')}</h2>
          <TextList ordered lines={steps} />
        </section>
        <div className="public-actions">
          <button
            type="button"
            className="button button-primary"
            onClick={() => window.location.assign('/')}
          >
            {t('notSupported.reload')}
          </button>
        </div>
      </div>
    </PublicPage>
  );
}
