// The page's main heading, and where keyboard focus goes when the page changes.
//
// A single-page app does not load a new document on navigation, so screen readers announce
// nothing and focus stays on the link that was clicked, or falls to <body> when that link goes
// away (the dashboard card that opened the workspace, the consent modal's Agree). Every page
// renders its h1 with <PageHeading>: after a navigation (a new path, not the first load and not a
// change of query only) the heading takes focus, so a screen reader reads the new page's name
// and the next Tab starts at the top of its content. The document title follows the heading.
// A dialog that closes with nothing to return focus to sends it here too (focusPageHeading).
import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';

const APP_NAME = 'Reaction Blocks';

/** The first path this app rendered; a heading takes focus only once the path has changed. */
let firstPath: string | null = null;
let navigated = false;

/** Records the path the router shows (AppRoutes calls it on every render). */
export function notePath(pathname: string) {
  if (firstPath === null) firstPath = pathname;
  else if (pathname !== firstPath) navigated = true;
}

/** For tests: as if the app had just loaded. */
export function resetNavigation() {
  firstPath = null;
  navigated = false;
}

/** Moves focus to the page's main heading; returns whether there was one. */
export function focusPageHeading(): boolean {
  const heading = document.querySelector<HTMLElement>('[data-page-heading]');
  if (!heading) return false;
  heading.focus({ preventScroll: true });
  return true;
}

export interface PageHeadingProps {
  children: ReactNode;
  className?: string;
  /** The document title, when the heading alone would not say enough (default: its text). */
  title?: string;
}

export function PageHeading({ children, className, title }: PageHeadingProps) {
  const ref = useRef<HTMLHeadingElement>(null);
  const { pathname } = useLocation();

  useEffect(() => {
    const text = title ?? ref.current?.textContent?.trim();
    if (text) document.title = text === APP_NAME ? APP_NAME : `${text} · ${APP_NAME}`;
  });

  useEffect(() => {
    notePath(pathname);
    if (navigated) ref.current?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <h1 ref={ref} className={className} tabIndex={-1} data-page-heading="">
      {children}
    </h1>
  );
}
