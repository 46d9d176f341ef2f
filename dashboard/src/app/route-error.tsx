// What a screen that cannot be shown says instead of a blank page: a lazy screen's chunk that a
// deploy removed while the tab was open ("The dashboard was updated meanwhile. Reload ..."), or a
// screen that threw while rendering. lib/errors.ts says which, loaded only then (it is not in the
// landing's first load); when even it cannot load, the tab's chunks are gone: an update. The way
// on is a reload. Going to another path tries again there. Its heading says the page could not be
// shown, and so does the tab's title (PageHeading), not the previous page's name.
import { Component, type ReactNode } from 'react';
import i18next from 'i18next';
import { PageHeading } from '../components/ui/page-heading';

interface Props {
  /** the path shown: an error is forgotten when it changes */
  pathname: string;
  children: ReactNode;
}
interface State {
  error: unknown;
  /** the reason said, once lib/errors.ts has read the error */
  reason: string;
  pathname: string;
}

export class RouteError extends Component<Props, State> {
  override state: State = { error: null, reason: '', pathname: this.props.pathname };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('unknown'), reason: '' };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.pathname === state.pathname
      ? null
      : { error: null, reason: '', pathname: props.pathname };
  }

  override componentDidCatch() {
    // the error as state holds it (a thrown null or undefined is held as an Error), so the reason
    // is said for it; not when another path or another error came meanwhile
    const shown = this.state.error;
    const said = (reason: string) => {
      if (this.state.error === shown) this.setState({ reason });
    };
    import('../lib/errors').then(
      ({ failureReason }) => said(failureReason(shown)),
      () => said(i18next.t('common.reasons.updated')),
    );
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <section className="route-error" role="alert">
        <PageHeading>{i18next.t('common.notShown')}</PageHeading>
        <p>{this.state.reason}</p>
        <button type="button" className="button button-primary" onClick={() => location.reload()}>
          {i18next.t('common.reload')}
        </button>
      </section>
    );
  }
}
