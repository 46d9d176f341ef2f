import { cleanup, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INTEGRATION_MESSAGES } from '@reaction-blocks/contracts/schemas';
import { renderWithProviders } from '../../../test/utils';
import { OAuthReturnPage } from './oauth-return-page';

vi.mock('../../../lib/supabase', () => ({
  supabase: { from: vi.fn(), rpc: vi.fn() },
  invokeFunction: vi.fn(),
}));

const messages: unknown[] = [];
class FakeChannel {
  constructor(readonly name: string) {}
  postMessage(data: unknown) {
    messages.push({ name: this.name, data });
  }
  close() {}
}
vi.stubGlobal('BroadcastChannel', FakeChannel);

afterEach(() => {
  messages.length = 0;
});

const render = (route: string, complete = vi.fn(async () => ({ workspaceName: 'Acme' }))) => {
  const close = vi.spyOn(window, 'close').mockImplementation(() => {});
  renderWithProviders(
    <Routes>
      <Route
        path="/oauth/:service"
        element={<OAuthReturnPage complete={complete} closeDelay={0} />}
      />
      <Route path="/" element={<p>home</p>} />
    </Routes>,
    { route },
  );
  return { complete, close };
};

/** A finished connection: the server got the code and state, the opener was told, the window closed. */
async function expectConnected(
  { complete, close }: ReturnType<typeof render>,
  call: [service: string, code: string, state: string],
  workspaceName: string,
) {
  expect(complete).toHaveBeenCalledWith(...call);
  expect(messages).toEqual([
    {
      name: 'reaction-blocks:integrations',
      data: { type: call[0], result: { status: 'connected', workspaceName } },
    },
  ]);
  await waitFor(() => expect(close).toHaveBeenCalled());
}

describe('/oauth/{service}', () => {
  it('sends the code and state to the server, tells the opener and closes the window', async () => {
    const { complete, close } = render('/oauth/notion?code=abc&state=xyz');
    expect(await screen.findByRole('heading', { name: 'Connecting Notion' })).toBeTruthy();
    expect(
      await screen.findByText('Notion is connected. This window closes by itself.'),
    ).toBeTruthy();
    await expectConnected({ complete, close }, ['notion', 'abc', 'xyz'], 'Acme');
  });

  it('a denied authorisation says so without calling the server', async () => {
    const { complete } = render('/oauth/notion?error=access_denied&state=xyz');
    expect(
      await screen.findByText('Notion access was not granted. You can close this window.'),
    ).toBeTruthy();
    expect(complete).not.toHaveBeenCalled();
    expect(messages).toHaveLength(1);
  });

  it('shows the server’s refusal and names unsupported services', async () => {
    render(
      '/oauth/notion?code=abc&state=old',
      vi.fn(async () => Promise.reject(new Error(INTEGRATION_MESSAGES.invalidState))),
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      `Could not connect Notion: ${INTEGRATION_MESSAGES.invalidState}`,
    );
    cleanup();
    // a message that is not one of ours reads as failureReason says, not as it came
    render(
      '/oauth/notion?code=abc&state=old',
      vi.fn(async () => Promise.reject(new Error('This authorisation link has expired'))),
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not connect Notion: Something went wrong on our side. Try again in a moment.',
    );
  });

  it('says our own refusal in Korean', async () => {
    await i18next.changeLanguage('ko');
    try {
      render(
        '/oauth/notion?code=abc&state=old',
        vi.fn(async () => Promise.reject(new Error(INTEGRATION_MESSAGES.invalidState))),
      );
      expect((await screen.findByRole('alert')).textContent).toContain(
        '만료되었거나 다른 세션의 인증 링크입니다. 다시 연결해 주세요',
      );
      // no fallback particle after the name (U5: '노션을(를) 연결하지 못했습니다' read machine-made)
      expect((await screen.findByRole('alert')).textContent).toMatch(/^노션 연결에 실패했습니다: /);
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('finishes a Cafe24 connection the same way (the spec’s setCafe24 with code and state)', async () => {
    const { complete, close } = render(
      '/oauth/cafe24?code=c24&state=s24',
      vi.fn(async () => ({ workspaceName: 'myshop' })),
    );
    expect(await screen.findByRole('heading', { name: 'Connecting Cafe24' })).toBeTruthy();
    await screen.findByText('Cafe24 is connected. This window closes by itself.');
    await expectConnected({ complete, close }, ['cafe24', 'c24', 's24'], 'myshop');
  });

  it('refuses a service it does not know, and a return without a code', async () => {
    const { complete } = render('/oauth/shopify?code=abc&state=x');
    expect((await screen.findByRole('alert')).textContent).toBe('This service is not supported.');
    expect(complete).not.toHaveBeenCalled();
  });

  it('says a return without a code failed, naming the service', async () => {
    const { complete } = render('/oauth/cafe24?state=x');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not connect Cafe24: Cafe24 did not send an authorisation code.',
    );
    expect(complete).not.toHaveBeenCalled();
  });
});
