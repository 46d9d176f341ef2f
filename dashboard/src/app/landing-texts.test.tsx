// The texts a visitor reads on /reaction, /send and /pricing and a new owner on /purchase, in Korean and
// in English: no English left where a Korean text exists (and no Korean in English: won is ₩ there), one name
// for each paid feature on the three pages (U15: '노션 연동' and '오픈 그래프 설정' as the landing
// writes them), and /purchase's plan names and prices as /pricing shows them. Here in app/, which
// puts the landing and the plans features together.
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
// before the features: the mock below uses it when the plans feature loads
import { fakeExports, renderWithProviders, signedInSession } from '../test/utils';
import { PricingPage, ReactionPage, SendPage } from '../features/landing';
import { PurchasePage } from '../features/plans';
import * as plansApi from '../features/plans/api/plans';
import { REACTION_TYPES } from '../lib/db-types';
import { setLanguage, type Language } from '../lib/i18n';

vi.mock(import('../features/plans/api/plans'), (original) =>
  fakeExports(original, ['listActivePlans']),
);

beforeEach(() => {
  // a new owner: no plan yet, so /purchase shows Select plan
  vi.mocked(plansApi).listActivePlans.mockResolvedValue([]);
});

/** Words written in Latin letters that are the same in Korean: names of services and units. */
const SAME_IN_KOREAN = new Set(['PayPal', 'UTC', 'QR']);

/** Every text a reader meets on the page: its text and the names, hints and titles it gives. */
function readerTexts(page: Element): string[] {
  const texts: string[] = [];
  const walker = document.createTreeWalker(page, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim();
    if (text) texts.push(text);
  }
  for (const element of page.querySelectorAll('*'))
    for (const name of ['aria-label', 'title', 'alt', 'placeholder']) {
      const text = element.getAttribute(name)?.trim();
      if (text) texts.push(text);
    }
  return texts;
}

/** The words of more than one letter in Latin script (A/B's letters are the same in Korean). */
const latinWords = (texts: string[]) =>
  texts.flatMap((text) => text.match(/[A-Za-z][A-Za-z'’-]+/g) ?? []);
const hangul = (texts: string[]) =>
  texts.filter((text) => /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/.test(text));

/** What is left that the language does not write that way: English in ko, Korean in en. */
function foreignTexts(page: Element, lang: Language) {
  const texts = readerTexts(page);
  return lang === 'ko'
    ? [...new Set(latinWords(texts).filter((word) => !SAME_IN_KOREAN.has(word)))]
    : hangul(texts);
}

/** Renders each page in a region of its own, so its texts can be read apart. */
function renderPages(pages: Record<string, ReactElement>, route: string) {
  renderWithProviders(
    <>
      {Object.entries(pages).map(([name, page]) => (
        <div key={name} data-page={name}>
          {page}
        </div>
      ))}
    </>,
    { route, session: signedInSession() },
  );
  return (name: string) => document.querySelector(`[data-page="${name}"]`)!;
}

const LANGUAGES: Language[] = ['ko', 'en'];

describe('/reaction in Korean and in English', () => {
  it.each(LANGUAGES)(
    '%s: every tab, its demo and the features in the language alone',
    async (lang) => {
      await act(() => setLanguage(lang, false));
      for (const type of REACTION_TYPES) {
        const page = renderPages({ reaction: <ReactionPage /> }, `/reaction?focus=${type}`);
        expect(foreignTexts(page('reaction'), lang), `/reaction?focus=${type}`).toEqual([]);
        cleanup();
      }
    },
  );
});

describe('/send in Korean and in English', () => {
  it.each(LANGUAGES)(
    '%s: every source in the language alone, the audience named as the product names it',
    async (lang) => {
      await act(() => setLanguage(lang, false));
      for (const source of ['notion', 'typedream', 'brunch']) {
        const page = renderPages({ send: <SendPage /> }, `/send?focus=${source}`)('send');
        expect(foreignTexts(page, lang), `/send?focus=${source}`).toEqual([]);
        const texts = readerTexts(page).join(' ');
        // the menu's word (오디언스), not 독자 (readers) as /send wrote it
        if (lang === 'ko')
          expect(texts.match(/오디언스|독자|구독자/g)).toEqual(['오디언스', '오디언스']);
        else
          expect(texts.match(/audience|readers|subscribers/gi)).toEqual(['audience', 'audience']);
        cleanup();
      }
    },
  );
});

/** The feature lines of the three pages, each page's own. */
function featureLines(page: (name: string) => Element) {
  const lines = (root: Element, selector: string) =>
    [...root.querySelectorAll(selector)].map((li) => li.textContent ?? '');
  return {
    reaction: lines(page('reaction'), '.feature'),
    // Basic's lines after its counts: what a paid plan adds
    pricing: lines(page('pricing').querySelector('[aria-labelledby="plan-basic"]')!, 'li').slice(2),
    // Select plan's first group (general); the others are per block type
    purchase: lines(page('purchase').querySelector('.purchase-groups > div')!, 'li'),
  };
}

describe('/reaction, /pricing and /purchase name each feature and plan once', () => {
  it.each(LANGUAGES)(
    '%s: the same names for Notion, Open Graph, styles and audience, and no other language',
    async (lang) => {
      await act(() => setLanguage(lang, false));
      const page = renderPages(
        { reaction: <ReactionPage />, pricing: <PricingPage />, purchase: <PurchasePage /> },
        '/purchase?focus=basic',
      );
      const title = lang === 'ko' ? '플랜 선택' : 'Select plan';
      await screen.findByRole('heading', { level: 1, name: title });
      // the step list names the page as its heading does ('Select Plan' beside 'Select plan')
      expect(document.querySelector('.purchase-steps [aria-current="step"]')!.textContent).toBe(
        `1${title}`,
      );
      for (const name of ['pricing', 'purchase'])
        expect(foreignTexts(page(name), lang), name).toEqual([]);
      const lines = featureLines(page);
      // /purchase lists what Basic adds on /pricing, in the same words
      expect(lines.purchase).toEqual(lines.pricing);
      const named = (pattern: RegExp) => [
        ...new Set(
          Object.values(lines).flatMap((list) => list.filter((line) => pattern.test(line))),
        ),
      ];
      const notion = named(/notion|노션/i);
      const openGraph = named(/open ?graph|오픈 ?그래프|\bOG\b/i);
      const style = named(/style|스타일/i);
      if (lang === 'ko') {
        expect(notion).toEqual(['노션 연동']);
        expect(openGraph).toEqual(['오픈 그래프 설정']);
        expect(style).toEqual(['스타일 꾸미기']);
        // the menu's word for the feature, on every page that names it
        expect(named(/오디언스|독자|구독자/)).toEqual(['오디언스와 계속 연결', '오디언스 관리']);
      } else {
        expect(notion).toEqual(['Notion integration']);
        expect(openGraph).toEqual(['Custom Open Graph']);
        expect(style).toEqual(['Customize style']);
        expect(named(/audience/i)).toEqual(['Stay connected to audience', 'Audience management']);
      }
    },
  );

  it.each(LANGUAGES)('%s: the plan names and prices as /pricing shows them', async (lang) => {
    await act(() => setLanguage(lang, false));
    const page = renderPages(
      { pricing: <PricingPage />, purchase: <PurchasePage /> },
      '/purchase?focus=basic',
    );
    await screen.findByTestId('purchase-price');
    const texts = (root: Element, selector: string) =>
      [...root.querySelectorAll(selector)].map((element) => element.textContent);
    const pricing = page('pricing');
    const purchase = page('purchase');
    // Starter is the plan one has before buying; /purchase sells the other two
    expect(texts(purchase, '.plan-type-name')).toEqual(texts(pricing, '.plan h2').slice(1));
    const price = (plan: string) =>
      pricing.querySelector(`[data-testid="price-${plan}"] strong`)!.textContent!;
    expect(screen.getByTestId('purchase-price').textContent).toContain(price('basic'));
    // Custom: the price of a unit and the minimum, as /pricing's Custom says them
    const customLines = texts(pricing, '[aria-labelledby="plan-custom"] li').join(' ');
    const money = (text: string) => text.match(/\$\d+(?:\.\d+)?|[\d,]+원/g) ?? [];
    const [unit] = money(customLines);
    fireEvent.click(
      screen.getByRole('radio', { name: new RegExp(texts(pricing, '.plan h2')[2]!) }),
    );
    const custom = purchase.querySelector('.plan-type-selected .plan-type-line')!.textContent!;
    expect(money(custom)[0]).toBe(unit);
    for (const count of purchase.querySelectorAll<HTMLInputElement>('input[type="number"]')) {
      fireEvent.change(count, { target: { value: '0' } });
    }
    expect((await screen.findByRole('alert')).textContent).toContain(price('custom'));
    expect(foreignTexts(purchase, lang)).toEqual([]);
  });

  it.each(LANGUAGES)(
    '%s: the payment step in the language alone, won as the language writes it',
    async (lang) => {
      await act(() => setLanguage(lang, false));
      const page = renderPages({ purchase: <PurchasePage /> }, '/purchase/payment?focus=basic');
      const price = await screen.findByTestId('payment-price');
      // an English reader read '3,000원': the one word of Korean on the page
      expect(price.textContent).toBe(
        lang === 'ko'
          ? '국내 카드·간편결제 월 3,000원, PayPal 월 $3'
          : '₩3,000 a month by Korean card or wallet, $3 a month with PayPal',
      );
      expect(foreignTexts(page('purchase'), lang)).toEqual([]);
    },
  );
});
