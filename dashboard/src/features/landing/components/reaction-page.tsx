import { useTranslation } from 'react-i18next';
import { REACTION_TYPES } from '../../../lib/db-types';
import { DemoBlock } from './demo-block';
import { ProductPage } from './product-page';

const FEATURES = ['unlimited', 'notification', 'notion', 'audience', 'style', 'openGraph'] as const;

export function ReactionPage() {
  const { t } = useTranslation();
  return (
    <ProductPage
      page="reaction"
      features={FEATURES}
      types={REACTION_TYPES}
      fallback="comment"
      tabLabel={(type) => t(`blockTypes.${type}`)}
      panelClassName="tab-panel demo-panel"
      focusablePanel
    >
      {(selected) => (
        <>
          <p>{t(`home.blockText.${selected}`)}</p>
          <DemoBlock key={selected} type={selected} />
        </>
      )}
    </ProductPage>
  );
}
