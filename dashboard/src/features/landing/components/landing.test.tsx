import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { parseSiteConfig } from '../../../config/site';
import { setLanguage } from '../../../lib/i18n';
import { renderWithProviders } from '../../../test/utils';
import { Footer } from './footer';
import { CookiePage, TermsPage } from './policy-pages';
import { NavBar } from './nav-bar';
import { PricingPage } from './pricing-page';

describe('NavBar', () => {
  it('links Reaction, Showcase, Pricing and Start, marking the current page', () => {
    renderWithProviders(<NavBar />, { route: '/pricing' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Reaction' }).getAttribute('href')).toBe(
      '/reaction',
    );
    expect(within(nav).getByRole('link', { name: 'Pricing' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(within(nav).getByRole('link', { name: 'Start' }).getAttribute('href')).toBe('/login');
  });

  it('hamburger opens a menu with Reaction, Send, Pricing and Start; Escape closes it', () => {
    renderWithProviders(<NavBar />);
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const menu = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(menu.hidden).toBe(false);
    expect(
      within(menu)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Reaction', 'Send', 'Pricing', 'Start']);
    fireEvent.keyDown(within(menu).getByRole('link', { name: 'Send' }), { key: 'Escape' });
    expect(menu.hidden).toBe(true);
    expect(document.activeElement).toBe(toggle);
  });

  it('gets its background after 120 px of scrolling', () => {
    renderWithProviders(<NavBar />);
    const header = screen.getByRole('banner');
    expect(header.getAttribute('data-scrolled')).toBe('false');
    act(() => {
      Object.defineProperty(window, 'scrollY', { value: 121, configurable: true });
      window.dispatchEvent(new Event('scroll'));
    });
    expect(header.getAttribute('data-scrolled')).toBe('true');
    act(() => {
      Object.defineProperty(window, 'scrollY', { value: 120, configurable: true });
      window.dispatchEvent(new Event('scroll'));
    });
    expect(header.getAttribute('data-scrolled')).toBe('false');
  });
});

describe('Footer', () => {
  const configured = parseSiteConfig({
    SITE_TERMS_URL: 'https://example.com/terms',
    SITE_TERMS_URL_KO: 'https://example.com/ko/terms',
    SITE_COOKIE_URL: 'https://example.com/cookies',
    SITE_CONTACT_EMAIL: 'hello@example.com',
    SITE_SOCIAL_LINKS: 'X=https://x.com/example',
    SITE_SOCIAL_LINKS_KO: 'Naver Blog=https://blog.naver.com/example,X=https://x.com/example_kr',
    SITE_KR_COMPANY: '리액션블록스',
    SITE_KR_REGISTRATION_NUMBER: '123-45-67890',
  }).config;

  it('shows Korean business information only in Korean, with locale policy links', async () => {
    renderWithProviders(<Footer config={configured} />);
    expect(screen.queryByRole('region', { name: 'Business information' })).toBeNull();
    const enTerms = screen.getByRole('link', { name: 'Terms & Privacy' });
    expect(enTerms.getAttribute('href')).toBe('https://example.com/terms');
    expect(enTerms.getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('link', { name: 'hello@example.com' }).getAttribute('href')).toBe(
      'mailto:hello@example.com',
    );
    expect(screen.getByRole('link', { name: 'X' }).getAttribute('href')).toBe(
      'https://x.com/example',
    );
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'ko' } });
    const business = await screen.findByRole('region', { name: '사업자 정보' });
    // Only the configured fields, each with its label.
    expect(Array.from(business.querySelectorAll('dt')).map((dt) => dt.textContent)).toEqual([
      '상호',
      '사업자등록번호',
    ]);
    expect(within(business).getByText('123-45-67890')).toBeTruthy();
    expect(
      screen.getByRole('link', { name: '이용약관 및 개인정보처리방침' }).getAttribute('href'),
    ).toBe('https://example.com/ko/terms');
    expect(screen.getByRole('link', { name: '쿠키 정책' }).getAttribute('href')).toBe(
      'https://example.com/cookies',
    );
    // Korean social links replace the English ones; the contact address falls back to English
    const contact = screen.getByRole('navigation', { name: '문의' });
    expect(
      within(contact)
        .getAllByRole('link')
        .map((a) => `${a.textContent} ${a.getAttribute('href')}`),
    ).toEqual([
      'hello@example.com mailto:hello@example.com',
      'Naver Blog https://blog.naver.com/example',
      'X https://x.com/example_kr',
      '도움말 /help',
    ]);
    expect(document.documentElement.lang).toBe('ko');
  });

  it("without settings links policies to the app's own pages and shows no business information", async () => {
    renderWithProviders(<Footer config={parseSiteConfig({}).config} />);
    expect(screen.getByRole('link', { name: 'Terms & Privacy' }).getAttribute('href')).toBe(
      '/terms',
    );
    expect(screen.getByRole('link', { name: 'Cookie policy' }).getAttribute('href')).toBe(
      '/cookies',
    );
    expect(screen.getByRole('link', { name: 'Cookie policy' }).getAttribute('target')).toBeNull();
    const contact = screen.getByRole('navigation', { name: 'Contact' });
    expect(
      within(contact)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/help']);
    await act(() => setLanguage('ko', false));
    expect(screen.queryByRole('region', { name: '사업자 정보' })).toBeNull();
    expect(
      screen.getByRole('link', { name: '이용약관 및 개인정보처리방침' }).getAttribute('href'),
    ).toBe('/terms');
  });
});

describe('policy pages', () => {
  it('say what the app keeps and stores, in English and Korean', async () => {
    renderWithProviders(
      <>
        <TermsPage />
        <CookiePage />
      </>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Terms & Privacy' })).toBeTruthy();
    expect(
      screen.getByRole('heading', { level: 2, name: 'What we keep about visitors' }),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Cookie policy' })).toBeTruthy();
    expect(screen.getByText(/sets no advertising or tracking cookies/)).toBeTruthy();
    await act(() => setLanguage('ko', false));
    expect(
      screen.getByRole('heading', { level: 1, name: '이용약관 및 개인정보처리방침' }),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: '쿠키 정책' })).toBeTruthy();
  });
});

describe('PricingPage', () => {
  it('shows dollar prices in English and won in Korean', async () => {
    renderWithProviders(<PricingPage />);
    expect(screen.getByTestId('price-starter').textContent).toBe('Free');
    expect(screen.getByTestId('price-basic').textContent).toBe('$3 / month');
    expect(screen.getByTestId('price-custom').textContent).toBe('from $3 / month');
    // each Start link names its plan for a screen reader, the visible word first (U11)
    const starts = () =>
      ['Starter', 'Basic', 'Custom', '스타터', '베이직', '커스텀']
        .map((name) => screen.queryByRole('link', { name: new RegExp(name) }))
        .filter((a) => a !== null)
        .map((a) => [a.textContent, a.getAttribute('aria-label')]);
    expect(starts()).toEqual([
      ['Start', 'Start with Starter'],
      ['Start', 'Start with Basic'],
      ['Start', 'Start with Custom'],
    ]);
    expect(screen.queryAllByRole('link', { name: 'Start' })).toHaveLength(0);
    // the price is per 4 blocks OR per 1,000 of the count, summed (U1: 'and' promised both for $1)
    const custom = screen.getByRole('listitem', { name: 'Custom' });
    expect(
      within(custom).getByText('$1 a month for each 4 blocks, or each 1,000 emails and answers'),
    ).toBeTruthy();
    await act(() => setLanguage('ko', false));
    expect(screen.getByTestId('price-basic').textContent).toBe('3,000원 / 월');
    expect(screen.getByTestId('price-custom').textContent).toBe('최소 3,000원 / 월');
    expect(starts()).toEqual([
      ['시작하기', '스타터 시작하기'],
      ['시작하기', '베이직 시작하기'],
      ['시작하기', '커스텀 시작하기'],
    ]);
    expect(
      within(custom).getByText('블록 4개 또는 이메일·응답 1,000건마다 월 1,000원'),
    ).toBeTruthy();
  });

  it('says what the monthly count counts, as the plan page’s meter does (rev-owner D7), en and ko', async () => {
    renderWithProviders(<PricingPage />);
    const starter = screen.getByRole('listitem', { name: 'Starter' });
    expect(within(starter).getByText('100 emails and answers per month')).toBeTruthy();
    expect(within(starter).queryByText('Unlimited responses')).toBeNull();
    expect(within(starter).getByText('Unlimited comments, likes and clicks')).toBeTruthy();
    expect(
      screen.getByText(
        'Emails and answers are one monthly count: the emails your letters send and the answers your forms and A/B blocks take. At the limit, forms and A/B blocks stop taking answers until the next month (UTC).',
      ),
    ).toBeTruthy();
    await act(() => setLanguage('ko', false));
    expect(within(starter).getByText('월 이메일·응답 100건')).toBeTruthy();
    expect(
      screen.getByText(
        /^이메일·응답은 한 달에 한 번 세는 하나의 건수입니다\. 레터로 보내는 이메일과/,
      ),
    ).toBeTruthy();
  });
});
