import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { Link, MemoryRouter, Route, Routes, useNavigate } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { Dialog } from './dialog';
import { PageHeading, resetNavigation } from './page-heading';

function Page({ title, to }: { title: string; to: string }) {
  const navigate = useNavigate();
  return (
    <main>
      <PageHeading>{title}</PageHeading>
      <Link to={to}>go</Link>
      <button type="button" onClick={() => navigate(`?tab=${title}`)}>
        query
      </button>
    </main>
  );
}

function renderApp(route = '/a') {
  return render(
    <MemoryRouter initialEntries={[route]}>
      <Routes>
        <Route path="/a" element={<Page title="Page A" to="/b" />} />
        <Route path="/b" element={<Page title="Page B" to="/a" />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('PageHeading', () => {
  beforeEach(resetNavigation);

  it('leaves focus alone on the first page, and names the document after the heading', () => {
    renderApp();
    const heading = screen.getByRole('heading', { level: 1, name: 'Page A' });
    expect(heading.getAttribute('tabindex')).toBe('-1');
    expect(document.activeElement).toBe(document.body);
    expect(document.title).toBe('Page A · Reaction Blocks');
  });

  it('takes focus after a navigation to a new path, so the new page is announced', () => {
    renderApp();
    const link = screen.getByRole('link', { name: 'go' });
    link.focus();
    fireEvent.click(link);
    const heading = screen.getByRole('heading', { level: 1, name: 'Page B' });
    expect(document.activeElement).toBe(heading);
    expect(document.title).toBe('Page B · Reaction Blocks');
  });

  it('does not move focus when only the query changes', () => {
    renderApp();
    fireEvent.click(screen.getByRole('link', { name: 'go' }));
    const query = screen.getByRole('button', { name: 'query' });
    query.focus();
    fireEvent.click(query);
    expect(document.activeElement).toBe(query);
  });
});

describe('a dialog that opened by itself', () => {
  beforeEach(resetNavigation);

  // The consent modal opens over the dashboard without anything focused; after Agree it
  // closes and focus used to fall to <body>.
  it('returns focus to the page heading when it closes', () => {
    function Screen() {
      const [open, setOpen] = useState(true);
      return (
        <main>
          <PageHeading>Reaction</PageHeading>
          <Dialog open={open} title="Terms" onClose={() => {}} dismissible={false}>
            <button type="button" onClick={() => setOpen(false)}>
              Agree
            </button>
          </Dialog>
        </main>
      );
    }
    render(
      <MemoryRouter>
        <Screen />
      </MemoryRouter>,
    );
    const agree = screen.getByRole('button', { name: 'Agree' });
    expect(document.activeElement).toBe(agree);
    act(() => agree.click());
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
  });
});
