import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setLanguage } from '../../../lib/i18n';
import { renderWithProviders } from '../../../test/utils';
import { Footer } from './footer';
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
  it('shows Korean business information only in Korean, with locale policy links', async () => {
    renderWithProviders(<Footer />);
    expect(screen.queryByRole('region', { name: 'Business information' })).toBeNull();
    const enTerms = screen.getByRole('link', { name: 'Terms & Privacy' }).getAttribute('href');
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'ko' } });
    expect(await screen.findByRole('region', { name: '사업자 정보' })).toBeTruthy();
    const koTerms = screen
      .getByRole('link', { name: '이용약관 및 개인정보처리방침' })
      .getAttribute('href');
    expect(koTerms).not.toBe(enTerms);
    expect(document.documentElement.lang).toBe('ko');
  });
});

describe('PricingPage', () => {
  it('shows dollar prices in English and won in Korean', async () => {
    renderWithProviders(<PricingPage />);
    expect(screen.getByTestId('price-starter').textContent).toBe('Free');
    expect(screen.getByTestId('price-basic').textContent).toBe('$3 / month');
    expect(screen.getByTestId('price-custom').textContent).toBe('from $3 / month');
    expect(screen.getAllByRole('link', { name: 'Start' })).toHaveLength(3);
    await act(() => setLanguage('ko', false));
    expect(screen.getByTestId('price-basic').textContent).toBe('3,000원 / 월');
    expect(screen.getByTestId('price-custom').textContent).toBe('최소 3,000원 / 월');
  });
});
