// An autoplaying product demo drawn with HTML and CSS (no video file): it cycles through the six
// block types. Autoplay is off when the visitor prefers reduced motion; it can be paused.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REACTION_TYPES, type ReactionType } from '../../../lib/db-types';
import { useMediaQuery } from '../../../lib/use-media-query';

export const DEMO_INTERVAL_MS = 3200;

/** One block type's scene: its own class, so the CSS draws and animates it. */
function DemoScene({ type }: { type: ReactionType }) {
  return (
    <div className={`demo-scene demo-${type}`}>
      <SceneContent type={type} />
    </div>
  );
}

function SceneContent({ type }: { type: ReactionType }) {
  const { t } = useTranslation();
  switch (type) {
    case 'comment':
      return (
        <>
          <div className="demo-bubble">
            <span className="demo-avatar" />
            <p>{t('home.demo.comment')}</p>
          </div>
          <div className="demo-input">
            <span className="demo-caret" />
          </div>
        </>
      );
    case 'qna':
      return (
        <>
          <p className="demo-bubble">{t('home.demo.qna')}</p>
          <p className="demo-bubble demo-answer">✓ {t('home.demo.qnaAnswer')}</p>
        </>
      );
    case 'like':
      return (
        <>
          <span className="demo-heart">♥</span>
          <span>{t('home.demo.like')}</span>
        </>
      );
    case 'button':
      return (
        <>
          <span className="demo-fake-button">{t('home.demo.button')}</span>
          <span className="demo-pointer" />
        </>
      );
    case 'ab':
      return (
        <>
          <p>{t('home.demo.abQuestion')}</p>
          <div className="demo-options">
            <span className="demo-option demo-option-picked">
              A · {t('home.demo.abA')} <b>64%</b>
            </span>
            <span className="demo-option">
              B · {t('home.demo.abB')} <b>36%</b>
            </span>
          </div>
        </>
      );
    case 'form':
      return (
        <>
          <p>{t('home.demo.formQuestion')}</p>
          <div className="demo-input">
            <span className="demo-typing" />
          </div>
          <span className="demo-fake-button">{t('home.demo.formSubmit')}</span>
        </>
      );
  }
}

export function ProductDemo() {
  const { t } = useTranslation();
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const [paused, setPaused] = useState(false);
  const [index, setIndex] = useState(0);
  const playing = !paused && !reducedMotion;

  useEffect(() => {
    if (!playing) return;
    const timer = window.setInterval(
      () => setIndex((i) => (i + 1) % REACTION_TYPES.length),
      DEMO_INTERVAL_MS,
    );
    return () => window.clearInterval(timer);
  }, [playing]);

  const type = REACTION_TYPES[index] ?? 'comment';

  return (
    <figure className="product-demo" aria-label={t('home.demoLabel')}>
      <div className="demo-window" data-playing={playing}>
        <div className="demo-window-bar" aria-hidden="true">
          <span />
          <span />
          <span />
        </div>
        <div className="demo-page" aria-hidden="true">
          <span className="demo-line demo-line-title" />
          <span className="demo-line" />
          <span className="demo-line demo-line-short" />
        </div>
        {/* Every scene is laid out, invisibly, in the same grid cell as the playing one, so the
            stage is always as tall as the tallest scene and the page below never moves when
            the demo moves on (no layout shift). The playing scene remounts to replay its
            animation. */}
        <div className="demo-stages">
          {REACTION_TYPES.map((item) => (
            <div key={item} className="demo-stage demo-stage-sizer" aria-hidden="true">
              <span className="demo-type-label">{t(`blockTypes.${item}`)}</span>
              <DemoScene type={item} />
            </div>
          ))}
          <div className="demo-stage" key={type}>
            <span className="demo-type-label">{t(`blockTypes.${type}`)}</span>
            <DemoScene type={type} />
          </div>
        </div>
      </div>
      <figcaption className="demo-controls">
        <button
          type="button"
          className="button button-ghost"
          aria-pressed={!playing}
          onClick={() => setPaused((p) => !p)}
          disabled={reducedMotion}
        >
          {playing ? t('home.demoPause') : t('home.demoPlay')}
        </button>
        <div className="demo-dots" role="group" aria-label={t('home.demoLabel')}>
          {REACTION_TYPES.map((item, i) => (
            <button
              key={item}
              type="button"
              className="demo-dot"
              aria-label={t(`blockTypes.${item}`)}
              aria-current={i === index ? 'true' : undefined}
              onClick={() => {
                setIndex(i);
                setPaused(true);
              }}
            />
          ))}
        </div>
        <span className="visually-hidden" aria-live="polite">
          {playing ? '' : t('home.demoShowing', { type: t(`blockTypes.${type}`) })}
        </span>
      </figcaption>
    </figure>
  );
}
