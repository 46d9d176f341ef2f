import { render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/utils';
import type { MemberRow } from '../api/audience';
import { registerAudienceTranslations } from '../locales';
import { EmailText, MemberRowView } from './member-row';

registerAudienceTranslations();

afterEach(async () => {
  await i18next.changeLanguage('en');
});

const member = (fields: Partial<MemberRow>): MemberRow =>
  ({
    id: 'm1',
    user_id: 'user-1',
    creator_name: 'Ann',
    email: 'ann@example.com',
    group_name: null,
    created_at: '2026-11-20T00:00:00Z',
    last_updated: '2026-11-20T00:00:00Z',
    deactivated: false,
    history: [],
    first_event: null,
    is_unsubscribed: false,
    awaiting_confirmation: false,
    ...fields,
  }) as MemberRow;

const row = (m: MemberRow, paid = true) =>
  renderWithProviders(
    <table>
      <tbody>
        <MemberRowView
          member={m}
          edit={false}
          groups={[]}
          paid={paid}
          onSaving={() => {}}
          onSaved={() => {}}
          onDelete={() => {}}
        />
      </tbody>
    </table>,
  );

describe('audience member state', () => {
  it('an active member who unsubscribed from the letters reads Unsubscribed, not Active', () => {
    row(member({ is_unsubscribed: true }));
    const state = screen.getByText('Unsubscribed');
    expect(state.getAttribute('title')).toBe(
      'This address unsubscribed from your letters: sends skip it.',
    );
    expect(screen.queryByText('Active')).toBeNull();
  });

  it('a member whose typed address has not confirmed reads Awaiting confirmation (확인 대기)', async () => {
    const { unmount } = row(member({ awaiting_confirmation: true }));
    const state = screen.getByText('Awaiting confirmation');
    expect(state.getAttribute('title')).toBe(
      'A visitor typed this address: your letters skip it until it confirms through the link we mail it. Adding it yourself makes it active.',
    );
    expect(screen.queryByText('Active')).toBeNull();
    unmount();
    await i18next.changeLanguage('ko');
    row(member({ awaiting_confirmation: true }));
    expect(screen.getByText('확인 대기')).toBeTruthy();
  });

  it('an unpaid owner’s awaiting member says it was not asked yet, in Korean too', async () => {
    const { unmount } = row(member({ awaiting_confirmation: true }), false);
    expect(screen.getByText('Awaiting confirmation').getAttribute('title')).toBe(
      'A visitor typed this address. Your plan sends no letters to your audience, so it has not been asked to confirm; it is asked when it is given again on a paid plan.',
    );
    unmount();
    await i18next.changeLanguage('ko');
    row(member({ awaiting_confirmation: true }), false);
    expect(screen.getByText('확인 대기').getAttribute('title')).toBe(
      '방문자가 입력한 주소입니다. 지금 요금제로는 오디언스에게 레터를 보낼 수 없어 아직 확인을 요청하지 않았습니다. 유료 요금제에서 이 주소가 다시 입력되면 확인을 요청합니다.',
    );
  });

  it('the others read Active or Deactive, in Korean too', async () => {
    const { unmount } = row(member({}));
    expect(screen.getByText('Active')).toBeTruthy();
    unmount();
    await i18next.changeLanguage('ko');
    row(member({ deactivated: true, is_unsubscribed: true }));
    expect(screen.getByText('비활성')).toBeTruthy();
  });
});

describe('EmailText', () => {
  it('keeps the address whole and lets it break only before "@" and dots', () => {
    const { container } = render(<EmailText email="ada.lovelace@mail.example.com" />);
    expect(container.textContent).toBe('ada.lovelace@mail.example.com');
    const parts = Array.from(container.querySelectorAll('span')).map((s) => s.textContent);
    expect(parts).toEqual(['ada', '.lovelace', '@mail', '.example', '.com']);
    expect(container.querySelectorAll('wbr')).toHaveLength(4);
  });
});
