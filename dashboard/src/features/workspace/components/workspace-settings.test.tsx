import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { workspaceData } from '../test/fixtures';
import { fakeApi, modeTabs, renderWorkspace } from '../test/workspace-page-harness';

// The workspace's settings: which controls are paid, and the schema's messages under the fields.
describe('paid-only controls', () => {
  it('are disabled for a free owner, with the upgrade link to /profile/plan', async () => {
    renderWorkspace(fakeApi(workspaceData('comment')));
    const anonymous = await screen.findByRole('switch', { name: 'Block anonymous users' });
    expect(anonymous).toHaveProperty('disabled', true);
    const hintId = anonymous.getAttribute('aria-describedby')!;
    const hint = document.getElementById(hintId)!;
    // one hint for the section, naming what the plan unlocks there (it said "Start a
    // subscription to use this feature. Upgrade" under each of seven controls)
    expect(hint.textContent).toContain('With a subscription you can also change: ');
    expect(hint.textContent).toContain('Block anonymous users, Allow likes, Allow replies');
    expect(within(hint).getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe(
      '/profile/plan',
    );
    for (const label of [
      'Allow likes',
      'Allow replies',
      'Show count',
      "Ask for the writer's email",
    ]) {
      const locked = screen.getByRole('switch', { name: label });
      expect(locked).toHaveProperty('disabled', true);
      expect(locked.getAttribute('aria-describedby')).toBe(hintId);
      expect(hint.textContent).toContain(label);
    }
    const main = hint.closest<HTMLElement>('.accordion-section')!;
    expect(within(main).getAllByRole('link', { name: 'Upgrade' })).toHaveLength(1);
    // the sections a subscription unlocks carry the Paid badge for a free owner
    expect(document.querySelectorAll('.paid-badge')).toHaveLength(4);
    // a free setting stays usable
    expect(screen.getByRole('switch', { name: 'Only the owner can reply' })).toHaveProperty(
      'disabled',
      false,
    );
    expect(screen.getByRole('radio', { name: 'Custom' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: /Open Graph/ }));
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveProperty('disabled', true);
  });

  it('are enabled for a paid owner', async () => {
    renderWorkspace(fakeApi(workspaceData('comment')), { paid: true });
    expect(await screen.findByRole('switch', { name: 'Block anonymous users' })).toHaveProperty(
      'disabled',
      false,
    );
    expect(screen.getByRole('radio', { name: 'Custom' })).toHaveProperty('disabled', false);
    expect(screen.queryByRole('link', { name: 'Upgrade' })).toBeNull();
    // nor a Paid badge on sections the owner has (four said "Paid" to a paying owner)
    expect(document.querySelectorAll('.paid-badge')).toHaveLength(0);
  });

  it('spam and abuse: holding, the honeypot and the captcha are paid, and saved with the settings', async () => {
    renderWorkspace(fakeApi(workspaceData('qna')));
    fireEvent.click(await screen.findByRole('button', { name: /Spam and abuse/ }));
    expect(screen.getByRole('combobox', { name: 'Hold new messages for approval' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(screen.getByRole('switch', { name: 'Hidden spam trap (honeypot)' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(
      screen.getByRole('switch', { name: 'Ask for a captcha when a visitor goes too fast' }),
    ).toHaveProperty('disabled', true);
  });

  it('a paid owner turns them on and they go out in the settings of the save', async () => {
    const api = fakeApi(workspaceData('comment'));
    renderWorkspace(api, { paid: true });
    fireEvent.click(await screen.findByRole('button', { name: /Spam and abuse/ }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Hold new messages for approval' }), {
      target: { value: 'first_time' },
    });
    fireEvent.click(screen.getByRole('switch', { name: 'Hidden spam trap (honeypot)' }));
    fireEvent.click(
      screen.getByRole('switch', { name: 'Ask for a captcha when a visitor goes too fast' }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.save).toHaveBeenCalledTimes(1));
    expect(vi.mocked(api.save).mock.calls[0]![0].settings).toEqual({
      hold_messages: 'first_time',
      honeypot: true,
      captcha: true,
    });
  });

  it('a like block offers the captcha only', async () => {
    renderWorkspace(fakeApi(workspaceData('like')), { paid: true });
    fireEvent.click(await screen.findByRole('button', { name: /Spam and abuse/ }));
    expect(screen.queryByRole('combobox', { name: 'Hold new messages for approval' })).toBeNull();
    expect(screen.queryByRole('switch', { name: 'Hidden spam trap (honeypot)' })).toBeNull();
    expect(
      screen.getByRole('switch', { name: 'Ask for a captcha when a visitor goes too fast' }),
    ).toHaveProperty('disabled', false);
  });

  it('like position is paid only on like blocks', async () => {
    renderWorkspace(fakeApi(workspaceData('like')));
    expect(await screen.findByRole('combobox', { name: 'Position' })).toHaveProperty(
      'disabled',
      true,
    );
  });
});

describe('settings validation', () => {
  it('shows the schema messages under the field and refuses to send', async () => {
    const api = fakeApi(workspaceData('comment'));
    renderWorkspace(api);
    const photo = await screen.findByRole('textbox', { name: 'Owner photo URL' });
    // an address copied without its scheme: the message says what is missing (rev-owner D8)
    fireEvent.change(photo, { target: { value: 'example.com/page' } });
    expect(photo.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(photo.getAttribute('aria-describedby')!)!.textContent).toBe(
      'Enter the full address, starting with https:// (e.g. https://example.com/page)',
    );
    const placeholder = screen.getByRole('textbox', { name: 'Placeholder' });
    fireEvent.change(placeholder, { target: { value: 'x'.repeat(501) } });
    expect(placeholder.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Too long message')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Please check the highlighted fields.',
    );
    // the first field that needs fixing, in page order
    await waitFor(() => expect(document.activeElement).toBe(placeholder));
    expect(api.save).not.toHaveBeenCalled();
  });

  it('checks the notification email after a pause in typing', async () => {
    renderWorkspace(fakeApi(workspaceData('form')));
    fireEvent.click(await screen.findByRole('button', { name: 'Notification' }));
    const mail = screen.getByRole('textbox', { name: 'Notification email' });
    fireEvent.change(mail, { target: { value: 'owner@' } });
    expect(screen.queryByText('Invalid email address.')).toBeNull();
    expect(await screen.findByText('Invalid email address.')).toBeTruthy();
    fireEvent.change(mail, { target: { value: 'owner@example.com' } });
    await waitFor(() => expect(screen.queryByText('Invalid email address.')).toBeNull());
  });

  it('in Korean', async () => {
    const { setLanguage } = await import('../../../lib/i18n');
    await setLanguage('ko', false);
    renderWorkspace(fakeApi(workspaceData('comment')));
    const photo = await screen.findByRole('textbox', { name: '소유자 사진 URL' });
    fireEvent.change(photo, { target: { value: 'nope' } });
    expect(
      screen.getByText('https://로 시작하는 전체 주소를 입력하세요(예: https://example.com/page)'),
    ).toBeTruthy();
    expect(modeTabs('작업 모드')).toEqual(['편집', '댓글']);
  });
});
