import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Ab, Button, Comment, Form, Like, Qna } from '@reaction-blocks/sdk/react';
import { DEMO_BLOCKS, DEMO_OWNER, type Project } from './config';
import { EventLog, type LoggedEvent } from './event-log';
import { TEXTS, fill, type Lang } from './texts';

type ThemeChoice = '' | 'light' | 'dark';
type LangChoice = '' | Lang;

/** Keeps the log readable: the newest events, each detail at most one line. */
const MAX_EVENTS = 30;
const MAX_DETAIL = 160;

function summary(detail: unknown): string {
  // A submit's `response` is the server's whole answer; the answers say enough here.
  const text =
    JSON.stringify(detail, (key, value) => (key === 'response' ? undefined : value)) ?? '';
  return text.length > MAX_DETAIL ? text.slice(0, MAX_DETAIL - 1) + '…' : text;
}

/** One block's section: its heading (the section's accessible name) and the block. */
function Example({
  type,
  title,
  children,
}: {
  type: keyof typeof DEMO_BLOCKS;
  title: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`h-${type}`}>
      <h2 id={`h-${type}`}>{title}</h2>
      {children}
    </section>
  );
}

export function App({ project }: { project: Project }) {
  // React state passed to every block as properties: a change re-renders the elements in place.
  const [theme, setTheme] = useState<ThemeChoice>('');
  const [lang, setLang] = useState<LangChoice>('');
  const [dummy, setDummy] = useState(false);
  const [like, setLike] = useState<{ liked: boolean; likeCount: number } | null>(null);
  const [events, setEvents] = useState<LoggedEvent[]>([]);
  const seq = useRef(0);
  const t = TEXTS[lang || 'en'];

  useEffect(() => {
    document.documentElement.lang = lang || 'en';
    document.title = t.title;
    document.body.dataset.theme = theme || 'light';
  }, [lang, theme, t]);

  const record = (name: string) => (e: CustomEvent) => {
    const entry = { id: ++seq.current, name, detail: summary(e.detail) };
    setEvents((prev) => [entry, ...prev].slice(0, MAX_EVENTS));
  };
  const onMessage = record('reaction-message');
  const onSignIn = record('reaction-sign-in');
  const onSubmit = record('reaction-submit');

  // What every block shares: where the project is, whose blocks they are, and the controls.
  const shared = {
    projectUrl: project.projectUrl,
    anonKey: project.anonKey,
    ownerId: DEMO_OWNER,
    theme,
    lang,
    dummy,
    onReactionError: record('reaction-error'),
  };
  // What the two discussion blocks (comment, Q&A) add: their sign-in prompt and new messages.
  const discussion = { ...shared, onReactionSignIn: onSignIn, onReactionMessage: onMessage };

  return (
    <main>
      <h1>{t.title}</h1>
      <p>{t.intro}</p>
      {!project.anonKey && <p role="alert">{t.missingConfig}</p>}

      <fieldset>
        <legend>{t.controls}</legend>
        <label>
          {t.theme}
          <select value={theme} onChange={(e) => setTheme(e.target.value as ThemeChoice)}>
            <option value="">{t.blockDefault}</option>
            <option value="light">{t.light}</option>
            <option value="dark">{t.dark}</option>
          </select>
        </label>
        <label>
          {t.language}
          <select value={lang} onChange={(e) => setLang(e.target.value as LangChoice)}>
            <option value="">{t.blockDefault}</option>
            <option value="en">English</option>
            <option value="ko">한국어</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={dummy} onChange={(e) => setDummy(e.target.checked)} />
          {t.dummy}
        </label>
      </fieldset>

      <Example type="comment" title={t.comment}>
        <Comment {...discussion} blockId={DEMO_BLOCKS.comment} />
      </Example>

      <Example type="qna" title={t.qna}>
        <Qna {...discussion} blockId={DEMO_BLOCKS.qna} />
      </Example>

      <Example type="like" title={t.like}>
        <Like
          {...shared}
          blockId={DEMO_BLOCKS.like}
          onReactionLike={(e) => {
            setLike(e.detail);
            record('reaction-like')(e);
          }}
        />
        <p className="note" aria-live="polite" data-like-seen={like ? String(like.liked) : ''}>
          {like
            ? fill(t.likeSeen, {
                state: like.liked ? t.liked : t.unliked,
                count: like.likeCount,
              })
            : t.likeNotYet}
        </p>
      </Example>

      <Example type="button" title={t.button}>
        <Button
          {...shared}
          blockId={DEMO_BLOCKS.button}
          onReactionClick={record('reaction-click')}
        />
      </Example>

      <Example type="ab" title={t.ab}>
        <Ab {...shared} blockId={DEMO_BLOCKS.ab} onReactionSubmit={onSubmit} />
      </Example>

      <Example type="form" title={t.form}>
        <Form {...shared} blockId={DEMO_BLOCKS.form} onReactionSubmit={onSubmit} />
      </Example>

      <EventLog title={t.events} empty={t.noEvents} events={events} />
    </main>
  );
}
