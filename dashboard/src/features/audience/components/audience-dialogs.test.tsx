import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { AUDIENCE_MESSAGES } from '@reaction-blocks/contracts/letters';
import { fakeExports, renderWithProviders } from '../../../test/utils';
import * as audienceApi from '../api/audience';
import { registerAudienceTranslations } from '../locales';
import { AddAudienceDialog, audienceMessage, CsvImportDialog } from './audience-dialogs';

vi.mock(import('../api/audience'), (original) =>
  fakeExports(original, ['addMember', 'importBatch', 'memberAddresses']),
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

describe('an address the audience has already', () => {
  it('says so when adding it, in English and Korean, not that something went wrong', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // PostgREST's answer: the unique index on the lower-cased address
    api.addMember.mockRejectedValue({
      code: '23505',
      message:
        'duplicate key value violates unique constraint "audience_members_user_id_lower_email_idx"',
    });
    for (const [language, labels, said] of [
      ['en', ['Name', 'Email'], 'This address is already in your audience.'],
      ['ko', ['이름', '이메일'], '이미 오디언스에 있는 주소입니다.'],
    ] as const) {
      await i18next.changeLanguage(language);
      const { onDone, dialog } = open();
      fireEvent.change(within(dialog).getByLabelText(labels[0]), { target: { value: 'Ann' } });
      const email = within(dialog).getByLabelText(labels[1]);
      fireEvent.change(email, { target: { value: 'ANN@example.com' } });
      await act(async () => {
        fireEvent.submit(email.closest('form')!);
      });
      expect(within(dialog).getByRole('alert').textContent).toBe(said);
      expect(onDone).not.toHaveBeenCalled();
      cleanup();
    }
    await i18next.changeLanguage('en');
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

describe('CSV import dialog', () => {
  /** The dialog, with `file` chosen (the audience empty till then). */
  const choose = async (file: File, onDone = () => {}) => {
    api.memberAddresses.mockResolvedValue(new Set());
    renderWithProviders(
      <CsvImportDialog userId="user-1" groups={[]} onDone={onDone} onClose={() => {}} />,
    );
    const dialog = screen.getByRole('dialog');
    const input = dialog.querySelector('input[type="file"]')!;
    fireEvent.change(input, { target: { files: [file] } });
    return dialog;
  };

  /** A CSV file of a name and each of `emails`. */
  const listOf = (emails: string[]) =>
    new File([`name,email\n${emails.map((e) => `P,${e}`).join('\n')}\n`], 'list.csv', {
      type: 'text/csv',
    });

  it("names each row papaparse misread in the reader's language, never papaparse's English", async () => {
    await i18next.changeLanguage('ko');
    try {
      const text =
        'name,email,group\nKim, Mina,kim@x.com,\nAnn,ann@x.com,ghosts\n"Open,open@x.com\nLast,l@x.com\n';
      const dialog = await choose(new File([text], 'list.csv', { type: 'text/csv' }));
      expect(
        await within(dialog).findByText(
          '2번째 줄의 칸이 머리글보다 많습니다. 구분 기호(쉼표)가 들어간 이름이나 그룹은 큰따옴표로 감싸 주세요.',
        ),
      ).toBeTruthy();
      // the unclosed quote took line 5 with it: both are named and counted (2 + 2 lines)
      expect(
        within(dialog).getByText(
          '4~5번째 줄을 제외했습니다. 4번째 줄에서 연 큰따옴표가 닫히지 않아, 그 뒤의 줄이 모두 한 칸으로 읽혔습니다.',
        ),
      ).toBeTruthy();
      expect(within(dialog).getByText('3줄을 제외했습니다:')).toBeTruthy();
      expect(within(dialog).getByText('1줄을 가져올 수 있습니다.')).toBeTruthy();
      expect(
        within(dialog).getByText('3번째 줄의 그룹 “ghosts”은(는) 없는 그룹입니다.'),
      ).toBeTruthy();
      expect(within(dialog).queryByText(/Too many fields|Quoted field/)).toBeNull();
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it("a row with more fields than the header names the file's own separator (en, ko)", async () => {
    // before: it said "a comma" whatever the file was separated by
    const en = await choose(
      new File(['name;email\nKim; Mina;kim@x.com\nAnn;ann@x.com\n'], 'list.csv', {
        type: 'text/csv',
      }),
    );
    expect(
      await within(en).findByText(
        'Line 2 has more fields than the header row: put a name or group with a semicolon in double quotes.',
      ),
    ).toBeTruthy();
    cleanup();
    await i18next.changeLanguage('ko');
    try {
      for (const [separator, name] of [
        ['\t', '탭'],
        ['|', '세로 막대 |'],
      ]) {
        const text = `name${separator}email\nKim${separator} Mina${separator}kim@x.com\nAnn${separator}ann@x.com\n`;
        const ko = await choose(new File([text], 'list.csv', { type: 'text/csv' }));
        expect(
          await within(ko).findByText(
            `2번째 줄의 칸이 머리글보다 많습니다. 구분 기호(${name})가 들어간 이름이나 그룹은 큰따옴표로 감싸 주세요.`,
          ),
        ).toBeTruthy();
        cleanup();
      }
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('reads a file Korean Excel saved (CP949) as Korean, and says so (rev-owner D3)', async () => {
    // before: read as UTF-8, the names were stored as U+FFFD, silently
    // 박민수, 최지우 in code page 949; the rest is ASCII
    const CP949: Record<string, number[]> = {
      박: [0xb9, 0xda],
      민: [0xb9, 0xce],
      수: [0xbc, 0xf6],
      최: [0xc3, 0xd6],
      지: [0xc1, 0xf6],
      우: [0xbf, 0xec],
    };
    const cp949 = (text: string) =>
      Uint8Array.from([...text].flatMap((c) => CP949[c] ?? [c.charCodeAt(0)]));
    const bytes = cp949('name,email,group\n박민수,minsu@x.com,\n최지우,jiwoo@x.com,\n');
    const dialog = await choose(new File([bytes], 'list.csv', { type: 'text/csv' }));
    expect(await within(dialog).findByText('2 rows ready to import.')).toBeTruthy();
    expect(
      within(dialog).getByText(
        'This file is not UTF-8, so it was read as Korean Excel saves CSV (EUC-KR): its first name reads “박민수”. If that looks wrong, save the file as “CSV UTF-8” and choose it again.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
    await vi.waitFor(() => expect(api.importBatch).toHaveBeenCalled());
    expect(api.importBatch.mock.calls[0]![1].map((r: { name: string }) => r.name)).toEqual([
      '박민수',
      '최지우',
    ]);
  });

  it('reads a 20,000-row file once and shows the import’s progress batch by batch', async () => {
    const reads = vi.spyOn(FileReader.prototype, 'readAsArrayBuffer');
    const texts = vi.spyOn(FileReader.prototype, 'readAsText');
    const emails = Array.from({ length: 20_000 }, (_, i) => `p${i}@x.com`);
    // each batch waits for its answer until the test lets it go, so each step can be seen
    const answers: (() => void)[] = [];
    api.importBatch.mockImplementation(
      (_user, batch) =>
        new Promise((answer) =>
          answers.push(() => answer({ added: batch.length, unsubscribed: 0 })),
        ),
    );
    const dialog = await choose(listOf(emails));
    expect(await within(dialog).findByText('20000 rows ready to import.')).toBeTruthy();
    expect(reads).toHaveBeenCalledTimes(1);
    expect(texts).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
    const bar = () => dialog.querySelector('progress')!;
    for (let batch = 1; batch <= 40; batch += 1) {
      await vi.waitFor(() => expect(answers).toHaveLength(batch));
      expect(bar().value).toBe((batch - 1) * 500);
      expect(bar().max).toBe(20_000);
      await act(async () => answers[batch - 1]!());
    }
    expect(await within(dialog).findByText('Imported 20000 new members.')).toBeTruthy();
    expect(api.importBatch).toHaveBeenCalledTimes(40);
  });

  it('an address added meanwhile in another case costs its batch nothing: the rest is sent, it counts as there', async () => {
    const rows = ['ann@x.com', 'late@x.com', 'bo@x.com'];
    const onDone = vi.fn();
    api.importBatch
      .mockRejectedValueOnce(Object.assign(new Error('duplicate key'), { code: '23505' }))
      .mockResolvedValueOnce({ added: 2, unsubscribed: 0 });
    const dialog = await choose(listOf(rows), onDone);
    await within(dialog).findByText('3 rows ready to import.');
    // Late@X.com joined the audience after the plan was made
    api.memberAddresses.mockResolvedValue(new Set(['late@x.com']));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(await within(dialog).findByText('Imported 2 new members.')).toBeTruthy();
    expect(within(dialog).getByText('1 address was already in your audience.')).toBeTruthy();
    expect(api.importBatch).toHaveBeenLastCalledWith(
      'user-1',
      expect.arrayContaining([expect.objectContaining({ email: 'ann@x.com' })]),
    );
    expect(api.importBatch.mock.lastCall![1].map((r: { email: string }) => r.email)).toEqual([
      'ann@x.com',
      'bo@x.com',
    ]);
    expect(onDone).toHaveBeenCalledTimes(1);
  });

  it('after a cut says how many rows went in and that importing again is safe; a retry clears it (en, ko)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const cut = new TypeError('Failed to fetch');
    for (const [language, button, said, done] of [
      [
        'en',
        'Import',
        'Could not do that: The connection failed. Check it and try again. 500 of 1200 rows were saved before the import stopped. Importing again is safe: the rows saved count as already in your audience.',
        'Imported 700 new members.',
      ],
      [
        'ko',
        '가져오기',
        '가져오기가 멈추기 전에 1200줄 중 500줄이 저장되었습니다. 다시 가져와도 괜찮습니다. 저장된 줄은 이미 오디언스에 있는 주소로 셉니다.',
        '새 구성원 700명을 가져왔습니다.',
      ],
    ] as const) {
      await i18next.changeLanguage(language);
      const onDone = vi.fn();
      const emails = Array.from({ length: 1200 }, (_, i) => `p${i}@x.com`);
      api.importBatch
        .mockReset()
        .mockResolvedValueOnce({ added: 500, unsubscribed: 0 })
        .mockRejectedValueOnce(cut);
      const dialog = await choose(listOf(emails), onDone);
      await within(dialog).findByText(/1200/);
      // the audience cannot be read either (the network is down): the confirmed batches count
      api.memberAddresses.mockRejectedValueOnce(cut);
      fireEvent.click(within(dialog).getByRole('button', { name: button }));
      const alert = await within(dialog).findByRole('alert');
      expect(alert.textContent).toContain(said);
      expect(onDone).toHaveBeenCalledTimes(1);
      // the retry sends the file again: the 500 in the audience count as already there
      api.importBatch.mockReset().mockResolvedValueOnce({ added: 0, unsubscribed: 0 });
      api.importBatch.mockResolvedValue({ added: 350, unsubscribed: 0 });
      fireEvent.click(within(dialog).getByRole('button', { name: button }));
      expect(await within(dialog).findByText(done)).toBeTruthy();
      expect(within(dialog).queryByRole('alert')).toBeNull();
      expect(api.importBatch).toHaveBeenCalledTimes(3);
      cleanup();
    }
    await i18next.changeLanguage('en');
  });

  it('counts a batch whose answer was lost when the audience has its rows', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const emails = Array.from({ length: 1200 }, (_, i) => `p${i}@x.com`);
    api.importBatch
      .mockReset()
      .mockResolvedValueOnce({ added: 500, unsubscribed: 0 })
      .mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const dialog = await choose(listOf(emails));
    await within(dialog).findByText('1200 rows ready to import.');
    // the second batch went in; its answer did not come back
    api.memberAddresses.mockResolvedValueOnce(new Set(emails.slice(0, 1000)));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      '1000 of 1200 rows were saved before the import stopped.',
    );
  });

  it("says a file the browser could not read in the reader's words, not the browser's", async () => {
    vi.spyOn(FileReader.prototype, 'readAsArrayBuffer').mockImplementationOnce(function (
      this: FileReader,
    ) {
      Object.defineProperty(this, 'error', {
        value: new DOMException('The requested file could not be read', 'NotReadableError'),
      });
      this.onerror?.(new ProgressEvent('error') as ProgressEvent<FileReader>);
    });
    const dialog = await choose(new File(['name,email\n'], 'list.csv'));
    expect(
      await within(dialog).findByText(
        'Could not read the file. Choose it again, or save it again as CSV.',
      ),
    ).toBeTruthy();
    expect(within(dialog).queryByText(/requested file/)).toBeNull();
  });
});
