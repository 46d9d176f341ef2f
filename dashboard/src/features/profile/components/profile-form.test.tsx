import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { alertsAfterClicks, renderWithProviders } from '../../../test/utils';
import { PROFILE_LIMITS, ZUpdateProfileInput } from '../api/update-profile';
import { ProfileForm } from './profile-form';

const initial = { name: 'Owner', photoUrl: '', homeUrl: '', language: 'en' as const };

function setup(onSave = vi.fn(() => Promise.resolve())) {
  renderWithProviders(
    <ProfileForm
      initial={initial}
      email="owner@example.com"
      onSave={onSave}
      onRemoveAccount={vi.fn()}
    />,
  );
  return onSave;
}

const save = () => screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;

describe('profile field limits', () => {
  it('uses the spec limits: name 100, image URL 500, homepage URL 500', () => {
    expect(PROFILE_LIMITS).toEqual({ name: 100, photoUrl: 500, homeUrl: 500 });
    setup();
    expect(screen.getByLabelText('Name').getAttribute('maxlength')).toBe('100');
    expect(screen.getByLabelText('Profile image URL').getAttribute('maxlength')).toBe('500');
    expect(screen.getByLabelText('Homepage URL').getAttribute('maxlength')).toBe('500');
    expect((screen.getByLabelText('Email') as HTMLInputElement).readOnly).toBe(true);
  });

  it('accepts a 100 character name and refuses 101', () => {
    setup();
    const name = screen.getByLabelText('Name');
    fireEvent.change(name, { target: { value: 'a'.repeat(100) } });
    expect(save().disabled).toBe(false);
    expect(screen.queryByText('Too long message')).toBeNull();
    fireEvent.change(name, { target: { value: 'a'.repeat(101) } });
    expect(save().disabled).toBe(true);
    expect(screen.getByText('Too long message')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
  });

  it('refuses a homepage URL over 500 characters and one that is not a URL', () => {
    setup();
    const home = screen.getByLabelText('Homepage URL');
    fireEvent.change(home, { target: { value: `https://e.com/${'a'.repeat(486)}` } });
    expect(save().disabled).toBe(false);
    fireEvent.change(home, { target: { value: `https://e.com/${'a'.repeat(487)}` } });
    expect(save().disabled).toBe(true);
    fireEvent.change(home, { target: { value: 'not a url' } });
    expect(screen.getByText('Enter a full URL starting with http:// or https://')).toBeTruthy();
  });

  it('sends name, photoUrl, homeUrl and language', async () => {
    const onSave = setup();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '  New name ' } });
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'ko' } });
    fireEvent.click(save());
    await waitFor(() =>
      expect(onSave).toHaveBeenCalledWith({
        name: 'New name',
        photoUrl: '',
        homeUrl: '',
        language: 'ko',
      }),
    );
    expect(await screen.findByText('Saved')).toBeTruthy();
  });

  it("says why a save failed in the reader's language, never update-profile's English", async () => {
    // update-profile's answers as invokeFunction throws them: its 404, then a failed check
    const onSave = vi
      .fn<() => Promise<void>>()
      .mockRejectedValueOnce(
        Object.assign(new Error('Profile not found'), { status: 404, code: 'not_found' }),
      )
      .mockRejectedValueOnce(
        Object.assign(new Error('new row violates check constraint "profiles_name_check"'), {
          status: 400,
          code: 'update_failed',
        }),
      );
    setup(onSave);
    await alertsAfterClicks([
      [
        'en',
        'Save',
        'Could not save: Your account is not there any more (removed meanwhile). Sign in again.',
      ],
      [
        'ko',
        '저장',
        '저장하지 못했습니다: 서버에서 문제가 발생했습니다. 잠시 후 다시 시도해 주세요.',
      ],
    ]);
  });

  it('schema refuses an unknown language', () => {
    expect(ZUpdateProfileInput.safeParse({ ...initial, language: 'fr' }).success).toBe(false);
  });

  it('asks for confirmation before removing the account', () => {
    const onRemove = vi.fn(() => Promise.resolve());
    renderWithProviders(
      <ProfileForm initial={initial} email="o@e.com" onSave={vi.fn()} onRemoveAccount={onRemove} />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Remove account' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove account' });
    expect(onRemove).not.toHaveBeenCalled();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Remove account' }));
    const confirm = screen
      .getAllByRole('button', { name: 'Remove account' })
      .find((b) => b.closest('[role="alertdialog"]'));
    fireEvent.click(confirm!);
    expect(onRemove).toHaveBeenCalledTimes(1);
  });

  it("says in the dialog why the account was not removed, in the reader's language, and lets the owner try again", async () => {
    // delete-user's answers as invokeFunction throws them: a 503 in transit, then its own 500
    const onRemove = vi
      .fn<() => Promise<void>>()
      .mockRejectedValueOnce(
        Object.assign(new Error('The service is briefly unavailable'), {
          status: 503,
          code: 'unavailable',
        }),
      )
      .mockRejectedValueOnce(
        Object.assign(new Error('Could not delete the account: permission denied for table x'), {
          status: 500,
          code: 'delete_failed',
        }),
      )
      .mockResolvedValueOnce(undefined);
    renderWithProviders(
      <ProfileForm initial={initial} email="o@e.com" onSave={vi.fn()} onRemoveAccount={onRemove} />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Remove account' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove account' });
    const confirm = () =>
      within(dialog)
        .getAllByRole('button')
        .filter((b) => b.closest('[role="alertdialog"]'))
        .at(-1)!;
    fireEvent.click(confirm());
    expect(
      await within(dialog).findByText(
        'Your account was not removed: The service is briefly unavailable.',
      ),
    ).toBeTruthy();
    await act(() => i18next.changeLanguage('ko'));
    fireEvent.click(confirm());
    // never the server's English ('permission denied ...')
    expect(
      await within(dialog).findByText(
        '계정을 삭제하지 못했습니다: 서버에서 문제가 발생했습니다. 잠시 후 다시 시도해 주세요.',
      ),
    ).toBeTruthy();
    fireEvent.click(confirm());
    await waitFor(() => expect(onRemove).toHaveBeenCalledTimes(3));
  });
});

describe('the language of a visit opened with ?locale= (walk F4)', () => {
  it('says under Language that the visit follows the address and the saved language stays', async () => {
    renderWithProviders(
      <ProfileForm
        initial={{ ...initial, language: 'ko' }}
        email="owner@example.com"
        onSave={vi.fn()}
        onRemoveAccount={vi.fn()}
        visitLanguage="en"
      />,
    );
    const language = screen.getByLabelText('Language') as HTMLSelectElement;
    expect(language.value).toBe('ko');
    const hint =
      'This visit is in English, as its address asked (?locale=en). Your saved language, 한국어, stays until you save another here.';
    expect(screen.getByText(hint)).toBeTruthy();
    expect(language.getAttribute('aria-describedby')).toBe(screen.getByText(hint).id);
    await act(() => i18next.changeLanguage('ko'));
    expect(
      screen.getByText(
        '주소(?locale=en)에 따라 이번 방문은 English로 보입니다. 저장된 언어 한국어는 여기서 다른 언어를 저장할 때까지 그대로입니다.',
      ),
    ).toBeTruthy();
  });

  it('says nothing when the address named the saved language or none', () => {
    setup();
    expect(screen.queryByText(/This visit is in/)).toBeNull();
  });
});
