import { useTranslation } from 'react-i18next';
import { HelpContent } from '../../../components/help/help-content';
import { PageHeading } from '../../../components/ui/page-heading';

export function HelpPage() {
  const { t } = useTranslation();
  return (
    <section className="section page-head">
      <PageHeading>{t('help.title')}</PageHeading>
      <HelpContent />
    </section>
  );
}
