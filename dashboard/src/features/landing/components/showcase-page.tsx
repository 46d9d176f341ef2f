import { useTranslation } from 'react-i18next';

export function ShowcasePage() {
  const { t } = useTranslation();
  return (
    <section className="section page-head showcase">
      <h1>{t('showcase.title')}</h1>
      <p>{t('showcase.text')}</p>
    </section>
  );
}
