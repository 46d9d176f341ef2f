import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../../components/ui/page-heading';

export function ShowcasePage() {
  const { t } = useTranslation();
  return (
    <section className="section page-head showcase">
      <PageHeading>{t('showcase.title')}</PageHeading>
      <p>{t('showcase.text')}</p>
    </section>
  );
}
