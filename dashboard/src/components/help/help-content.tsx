// The help page content (en/ko), shown on /help and in the dashboard's help widget.
import { useTranslation } from 'react-i18next';
import { registerHelpTranslations } from './texts';

export function HelpContent({ headingLevel = 2 }: { headingLevel?: 2 | 3 }) {
  // here, not at the module's top: a module with a side effect would ride in every chunk that
  // imports the landing's index (the home page's too), where tree-shaking now leaves it out
  registerHelpTranslations();
  const { t } = useTranslation();
  const items = t('help.items', { returnObjects: true }) as { q: string; a: string }[];
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="help-content">
      <p>{t('help.intro')}</p>
      {items.map((item) => (
        <section key={item.q}>
          <Heading>{item.q}</Heading>
          <p>{item.a}</p>
        </section>
      ))}
    </div>
  );
}
