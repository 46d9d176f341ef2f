import { act, fireEvent, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { AUDIENCE_MESSAGES } from '@reaction-blocks/contracts/letters';
import { fakeExports, renderWithProviders } from '../../../test/utils';
import * as audienceApi from '../api/audience';
import { registerAudienceTranslations } from '../locales';
import { AddAudienceDialog, audienceMessage } from './audience-dialogs';

vi.mock(import('../api/audience'), (original) =>
  fakeExports(original, ['addMember', 'importBatch']),
);
const api = vi.mocked(audienceApi);
registerAudienceTranslations();

const open = () => {
  const onDone = vi.fn();
  renderWithProviders(
    <AddAudienceDialog userId="user-1" groups={['vip']} onDone={onDone} onClose={() => {}} />,
  );
  return { onDone, dialog: screen.getByRole('dialog') };
};

describe('add audience dialog', () => {
  it('adds on Enter once the name and email are valid, with the chosen group', async () => {
    api.addMember.mockResolvedValue(undefined);
    const { onDone, dialog } = open();
    const name = within(dialog).getByLabelText('Name');
    fireEvent.change(name, { target: { value: 'Ann' } });
    fireEvent.submit(name.closest('form')!);
    expect(api.addMember).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText('Email'), {
      target: { value: 'ann@example.com' },
    });
    fireEvent.change(within(dialog).getByLabelText('Group'), { target: { value: 'vip' } });
    await act(async () => {
      fireEvent.submit(name.closest('form')!);
    });
    expect(api.addMember).toHaveBeenCalledWith('user-1', {
      name: 'Ann',
      email: 'ann@example.com',
      group: 'vip',
    });
    expect(onDone).toHaveBeenCalledTimes(1);
  });

  it('says a full audience in Korean and keeps what was typed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await i18next.changeLanguage('ko');
    api.addMember.mockRejectedValue(new Error(AUDIENCE_MESSAGES.audienceFull));
    const { onDone, dialog } = open();
    fireEvent.change(within(dialog).getByLabelText('이름'), { target: { value: 'Ann' } });
    const email = within(dialog).getByLabelText('이메일') as HTMLInputElement;
    fireEvent.change(email, { target: { value: 'ann@example.com' } });
    await act(async () => {
      fireEvent.submit(email.closest('form')!);
    });
    expect(within(dialog).getByRole('alert').textContent).toContain(
      '오디언스가 가득 찼습니다. 더 이상 레터를 읽지 않는 분을 지운 뒤 다시 추가해 주세요.',
    );
    expect(email.value).toBe('ann@example.com');
    expect(onDone).not.toHaveBeenCalled();
  });
});

describe('audienceMessage', () => {
  it('says each of the shared schema’s messages in the reader’s language, others as failureReason says', async () => {
    const t = i18next.t.bind(i18next);
    expect(audienceMessage(t, AUDIENCE_MESSAGES.nameLength)).toBe('Name is too long');
    expect(audienceMessage(t, AUDIENCE_MESSAGES.audienceFull)).toContain('Your audience is full:');
    expect(audienceMessage(t, 'Network down')).toBe(
      'The connection failed. Check it and try again.',
    );
    expect(audienceMessage(t, undefined)).toBeUndefined();
    await i18next.changeLanguage('ko');
    expect(audienceMessage(t, AUDIENCE_MESSAGES.groupExists)).toBe('이미 있는 그룹입니다');
  });
});
