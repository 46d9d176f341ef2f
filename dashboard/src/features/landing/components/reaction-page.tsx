import { useTranslation } from 'react-i18next';
import { TabPanel, Tabs } from '../../../components/ui/tabs';
import { REACTION_TYPES } from '../../../lib/db-types';
import { useFocusParam } from '../hooks/use-focus-param';
import { DemoBlock } from './demo-block';
import { ProductPage } from './product-page';

const FEATURES = ['unlimited', 'notification', 'notion', 'audience', 'style', 'openGraph'] as const;

export function ReactionPage() {
  const { t } = useTranslation();
  const [selected, select] = useFocusParam(REACTION_TYPES, 'comment');
  return (
    <ProductPage page="reaction" features={FEATURES}>
      <section className="section">
        <Tabs
          label={t('reaction.tabsLabel')}
          idPrefix="reaction"
          items={REACTION_TYPES.map((type) => ({ id: type, label: t(`blockTypes.${type}`) }))}
          selected={selected}
          onSelect={select}
        />
        <TabPanel
          idPrefix="reaction"
          selected={selected}
          className="tab-panel demo-panel"
          focusable
        >
          <p>{t(`home.blockText.${selected}`)}</p>
          <DemoBlock key={selected} type={selected} />
        </TabPanel>
      </section>
    </ProductPage>
  );
}
