import { useTranslation } from 'react-i18next';
import { HelpContent } from '../../../components/help/help-content';

export function HelpPage() {
  const { t } = useTranslation();
  return (
    <section className="section page-head">
      <h1>{t('help.title')}</h1>
      <HelpContent />
    </section>
  );
}
