// /showcase: the six blocks live, each where a reader meets it (a blog post's comments, questions
// under a product, likes on a recipe, a newsletter's call to action, a vote in an article, a
// feedback form in a help centre), on a page drawn as a small browser window. They are the demo
// blocks of the stack (supabase/seed/; production names its own in /env.js), so what a visitor
// leaves here is real. Each block, and the SDK with the first of them, loads when it comes near
// the viewport: the page's first load carries none of it (docs/dashboard.md, Showcase).
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { BlockTypeIcon } from '../../../components/ui/block-type-icon';
import { PageHeading } from '../../../components/ui/page-heading';
import { paths } from '../../../config/paths';
import { REACTION_TYPES, type ReactionType } from '../../../lib/db-types';
import { useInView } from '../hooks/use-in-view';
import { DemoBlock } from './demo-block';

function ShowcaseItem({ type }: { type: ReactionType }) {
  const { t } = useTranslation();
  const frame = useRef<HTMLDivElement>(null);
  const near = useInView(frame);
  const at = `showcase.items.${type}`;
  return (
    <li className={`showcase-item showcase-item-${type}`}>
      <div className="showcase-caption">
        <BlockTypeIcon type={type} size={32} />
        <div>
          <h2 className="showcase-item-title">{t(`${at}.caption`)}</h2>
          <p className="showcase-item-text">{t(`${at}.why`)}</p>
        </div>
      </div>
      <div className="showcase-window" ref={frame}>
        <div className="showcase-window-bar" aria-hidden="true">
          <span />
          <span />
          <span />
          <span className="showcase-window-site">{t(`${at}.site`)}</span>
        </div>
        <div className="showcase-window-page">
          <p className="showcase-page-title">{t(`${at}.headline`)}</p>
          <p className="showcase-page-text">{t(`${at}.body`)}</p>
          {near ? (
            <DemoBlock type={type} />
          ) : (
            <div className="demo-block demo-block-waiting" aria-hidden="true" />
          )}
        </div>
      </div>
    </li>
  );
}

export function ShowcasePage() {
  const { t } = useTranslation();
  return (
    <section className="section page-head showcase">
      <PageHeading>{t('showcase.title')}</PageHeading>
      <p className="showcase-lead">{t('showcase.text')}</p>
      <ul className="showcase-list">
        {REACTION_TYPES.map((type) => (
          <ShowcaseItem key={type} type={type} />
        ))}
      </ul>
      <p className="showcase-next">
        <Link to={paths.login} className="button button-primary">
          {t('showcase.start')}
        </Link>
      </p>
    </section>
  );
}
