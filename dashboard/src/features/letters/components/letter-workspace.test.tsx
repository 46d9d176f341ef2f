// The letter workspace's keyboard focus (issue 22's accessibility pass): after Save, after Load
// sample and after a row is deleted focus stays on something useful instead of the page's body;
// each delete button names its row.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TLetterModel } from '@reaction-blocks/contracts/letters';
import {
  fakeExports,
  opensInKorean,
  renderWithProviders,
  signedInSession,
} from '../../../test/utils';
import * as lettersApi from '../api/letters';
import type { LetterData, Loaded } from '../api/letters';
import { describeKeptDraft } from '../../../test/kept-draft';
import { expectBackLinkAsks, expectTabCloseAsks } from '../../../test/leave-guard';
import { registerLetterTranslations } from '../locales';
import { LetterWorkspacePage } from './letter-workspace';

vi.mock(import('../api/letters'), (original) =>
  fakeExports(original, ['loadLetterBlock', 'listSenders', 'saveLetter', 'webToTemplate']),
);
const api = vi.mocked(lettersApi);

registerLetterTranslations();

const BLOCK_ID = '00000000-0000-4000-8000-000000000001';

const model = (texts: string[]): TLetterModel => ({
  version: 1,
  source: null,
  blocks: texts.map((text, i) => ({ id: `r${i}`, type: 'paragraph', spans: [{ text }] })),
  cta: null,
  imageButton: null,
});

function letterData(letter: TLetterModel, name = 'Weekly'): LetterData {
  return {
    block: { id: BLOCK_ID, type: 'notion_letter', name, language: 'en' } as LetterData['block'],
    private: {
      block_id: BLOCK_ID,
      letter,
      mail_title: 'Hello',
      mail_from: '',
      mail_name: '',
      mail_html: null,
      page_url: 'https://example.notion.site/page',
      brunch_profile_page: null,
    } as unknown as LetterData['private'],
  };
}

function renderLetter() {
  return renderWithProviders(
    <Routes>
      <Route path="/work/:blockId/:mode?" element={<LetterWorkspacePage />} />
    </Routes>,
    { route: `/work/${BLOCK_ID}`, session: signedInSession() },
  );
}

beforeEach(() => {
  api.listSenders.mockResolvedValue([]);
});

describe('letter workspace focus', () => {
  it('gives each delete button its row: number and first words, in en and ko', async () => {
    api.loadLetterBlock.mockResolvedValue(
      letterData(model(['First paragraph', 'Second one', 'First paragraph'])),
    );
    renderLetter();
    const rows = await screen.findByRole('list', { name: 'The letter' });
    const names = within(rows)
      .getAllByRole('button')
      .map((b) => b.getAttribute('aria-label'));
    expect(names).toEqual([
      'Delete row 1: First paragraph',
      'Delete row 2: Second one',
      'Delete row 3: First paragraph',
    ]);
    expect(new Set(names).size).toBe(3);
    await act(() => i18next.changeLanguage('ko'));
    expect(within(rows).getAllByRole('button')[1]!.getAttribute('aria-label')).toBe(
      '2번째 줄 삭제: Second one',
    );
  });

  it('moves focus to the next row’s delete button after a delete', async () => {
    api.loadLetterBlock.mockResolvedValue(letterData(model(['One', 'Two', 'Three'])));
    renderLetter();
    const second = await screen.findByRole('button', { name: 'Delete row 2: Two' });
    second.focus();
    fireEvent.click(second);
    expect(screen.queryByText('Two')).toBeNull();
    expect(document.activeElement).toBe(
      screen.getByRole('button', { name: 'Delete row 2: Three' }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete row 2: Three' }));
    // the last row went: the row before it takes focus
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete row 1: One' }));
  });

  it('after Load sample focus goes to the loaded letter; after a failed load to the page URL', async () => {
    api.loadLetterBlock.mockResolvedValue(letterData(model([])));
    let finish: (value: Loaded) => void = () => {};
    api.webToTemplate.mockImplementationOnce(() => new Promise((resolve) => (finish = resolve)));
    renderLetter();
    const sample = await screen.findByRole('button', { name: 'Load sample' });
    sample.focus();
    fireEvent.click(sample);
    expect(api.webToTemplate).toHaveBeenCalledWith(expect.objectContaining({ sample: true }));
    await act(async () =>
      finish({
        html: '',
        text: '',
        title: 'Sample',
        letter: model(['Loaded row']),
        pageUrl: 'https://example.notion.site/sample',
        warnings: [],
      }),
    );
    await screen.findByText('Loaded row');
    expect(document.activeElement).toBe(screen.getByRole('region', { name: 'The letter' }));

    api.webToTemplate.mockRejectedValueOnce(new Error('No sample page is set up'));
    fireEvent.click(screen.getByRole('button', { name: 'Load sample' }));
    const url = screen.getByRole('textbox', { name: 'Page URL' });
    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    await waitFor(() => expect(document.activeElement).toBe(url));
  });

  it('after Save, when Save goes away, focus stays in the workspace', async () => {
    const data = letterData(model(['One']));
    api.loadLetterBlock.mockResolvedValue(data);
    let finish: (value: LetterData) => void = () => {};
    api.saveLetter.mockImplementationOnce(() => new Promise((resolve) => (finish = resolve)));
    renderLetter();
    const title = await screen.findByRole('textbox', { name: 'Subject' });
    fireEvent.change(title, { target: { value: 'Hello again' } });
    const save = screen.getByRole('button', { name: 'Save' });
    save.focus();
    fireEvent.click(save);
    await act(async () =>
      finish({ ...data, private: { ...data.private!, mail_title: 'Hello again' } }),
    );
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    // no sender yet, so no Send letter: the workspace's heading takes focus
    expect(document.activeElement).not.toBe(document.body);
    expect(document.activeElement?.hasAttribute('data-page-heading')).toBe(true);
  });
});

describe('the letter’s language (U3)', () => {
  it('is the Language select of the other blocks, saved with the letter, in en and ko', async () => {
    const data = letterData(model(['One']));
    api.loadLetterBlock.mockResolvedValue(data);
    api.saveLetter.mockImplementation(async (body) => ({
      ...data,
      block: { ...data.block, language: body.language ?? data.block.language },
    }));
    renderLetter();
    const language = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Language' });
    expect(language.value).toBe('en');
    // each language named in itself, and said so to a screen reader
    expect(
      within(language)
        .getAllByRole('option')
        .map((o) => [o.textContent, o.getAttribute('lang')]),
    ).toEqual([
      ['English', 'en'],
      ['한국어', 'ko'],
    ]);
    fireEvent.change(language, { target: { value: 'ko' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Save' })).toBeNull());
    expect(api.saveLetter).toHaveBeenLastCalledWith(expect.objectContaining({ language: 'ko' }));
    await act(() => i18next.changeLanguage('ko'));
    try {
      expect(screen.getByRole<HTMLSelectElement>('combobox', { name: '언어' }).value).toBe('ko');
    } finally {
      await act(() => i18next.changeLanguage('en'));
    }
  });
});

describe('the letter’s name and its subject (walk: "Untitled" over "Weekly letter")', () => {
  it('labels the title Subject and says under it that it is what readers see and the name on top is the owner’s, in en and ko', async () => {
    api.loadLetterBlock.mockResolvedValue(letterData(model(['One']), ''));
    renderLetter();
    const title = await screen.findByRole('textbox', { name: 'Subject' });
    const hint = () =>
      document.getElementById(title.getAttribute('aria-describedby')!.split(' ')[0]!)!;
    expect(hint().textContent).toBe(
      'What readers see in their inbox and on top of the letter. The name at the top of this page, Untitled, is only yours: it names the letter in your dashboard.',
    );
    // the hint names the header's name as it is typed
    fireEvent.change(screen.getByRole('textbox', { name: 'Block name' }), {
      target: { value: 'Newsletter' },
    });
    expect(hint().textContent).toContain(
      'The name at the top of this page, Newsletter, is only yours',
    );
    await act(() => i18next.changeLanguage('ko'));
    expect(hint().textContent).toBe(
      '받는 사람이 받은편지함과 레터 맨 위에서 보는 제목입니다. 이 화면 맨 위의 이름(Newsletter)은 나만 보는 이름으로, 대시보드에서 이 레터를 가리킵니다.',
    );
  });
});

describe('leaving the letter with unsaved changes', () => {
  const location = () => screen.getByTestId('location').textContent;

  it('asks before the back link leaves, and stays or leaves as told', async () => {
    api.loadLetterBlock.mockResolvedValue(letterData(model(['Hello'])));
    renderLetter();
    await expectBackLinkAsks('Back to dashboard: Send', `/work/${BLOCK_ID}`, '/dashboard/send');
  });

  it('leaves without asking when nothing is unsaved', async () => {
    api.loadLetterBlock.mockResolvedValue(letterData(model(['Hello'])));
    renderLetter();
    await screen.findByRole('textbox', { name: 'Block name' });
    fireEvent.click(screen.getByRole('link', { name: 'Back to dashboard: Send' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(location()).toBe('/dashboard/send');
  });

  it('names the back link with the word it shows, in Korean too', async () => {
    await i18next.changeLanguage('ko');
    api.loadLetterBlock.mockResolvedValue(letterData(model(['Hello'])));
    renderLetter();
    const back = await screen.findByRole('link', { name: '대시보드의 보내기로 돌아가기' });
    expect(back.textContent!.trim()).toBe('대시보드');
  });

  it('asks before the link to verify a sender leaves an unsaved letter', async () => {
    api.loadLetterBlock.mockResolvedValue(letterData(model(['Hello'])));
    renderLetter();
    fireEvent.change(await screen.findByRole('textbox', { name: 'Block name' }), {
      target: { value: 'Unsaved' },
    });
    fireEvent.click(await screen.findByRole('link', { name: 'Verify a sender email' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Leave without saving?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(location()).toBe(`/work/${BLOCK_ID}`);
    fireEvent.click(screen.getByRole('link', { name: 'Verify a sender email' }));
    fireEvent.click(screen.getByRole('button', { name: 'Leave' }));
    expect(location()).toBe('/profile/email');
  });

  it('asks the browser before the tab closes', async () => {
    api.loadLetterBlock.mockResolvedValue(letterData(model(['Hello'])));
    renderLetter();
    await expectTabCloseAsks();
  });
});

describeKeptDraft(`/work/${BLOCK_ID}`, 'Weekly', (name) => {
  api.loadLetterBlock.mockResolvedValue(letterData(model(['Hello']), name));
  return renderLetter();
});

describe('a letter’s kept edits', () => {
  const sender = (email: string) =>
    api.listSenders.mockResolvedValue([{ email, status: 'verified' }]);

  it('are offered in Korean, and restored with a sender still verified', async () => {
    window.history.replaceState(null, '', `/work/${BLOCK_ID}`);
    sender('before@example.com');
    api.loadLetterBlock.mockResolvedValue(letterData(model(['Hello'])));
    const view = renderLetter();
    fireEvent.change(await screen.findByRole('textbox', { name: 'Subject' }), {
      target: { value: 'Typed before' },
    });
    view.unmount();
    // meanwhile that sender was deleted and another verified
    sender('after@example.com');
    await opensInKorean(
      renderLetter,
      '로그아웃되기 전(또는 페이지를 새로 고치기 전)에 이 레터에서 저장하지 않은 변경 사항을 이 탭에 보관해 두었습니다.',
    );
    fireEvent.click(screen.getByRole('button', { name: '변경 사항 복원' }));
    expect(screen.getByRole('textbox', { name: '메일 제목' })).toHaveProperty(
      'value',
      'Typed before',
    );
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: '보내는 사람' })).toHaveProperty(
        'value',
        'after@example.com',
      ),
    );
    window.history.replaceState(null, '', '/');
  });
});

describe('what a loaded page had that the letter does not carry (rev-uncov3 D1)', () => {
  it('is said under the page address (a cut, the kinds left out) in en and ko; a table shows as a table', async () => {
    api.loadLetterBlock.mockResolvedValue(letterData(model([])));
    api.webToTemplate.mockResolvedValueOnce({
      html: '',
      text: '',
      title: 'Long',
      letter: {
        ...model([]),
        // a table: each cell one span
        blocks: [
          {
            id: 't1',
            type: 'table',
            header: true,
            rows: [
              ['Name', 'Price'],
              ['Tea', '3'],
            ].map((row) => row.map((text) => [{ text }])),
          },
        ],
      },
      pageUrl: 'https://example.notion.site/long',
      warnings: [],
      leftOut: { kinds: { video: 1, embed: 2 }, cutAt: 400, shortened: 2 },
    });
    renderLetter();
    fireEvent.click(await screen.findByRole('button', { name: 'Load sample' }));
    const cut =
      'The page is long: the letter holds its first 400 parts; the rest of the page is not in it.';
    expect((await screen.findByText(cut)).getAttribute('role')).toBe('note');
    expect(
      screen.getByText('Not in the letter (a mail cannot show them): 2 embeds, 1 video.'),
    ).toBeTruthy();
    // a caption or a table cut at its limit is said too (before, it was cut without a word)
    expect(
      screen.getByText(
        '2 image captions or tables are longer than a letter holds: only their beginning is in the letter.',
      ),
    ).toBeTruthy();
    const table = within(screen.getByRole('table'));
    expect(table.getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Name', 'Price']);
    expect(table.getAllByRole('cell').map((c) => c.textContent)).toEqual(['Tea', '3']);
    expect(screen.getByRole('button', { name: 'Delete row 1: Name, Price, Tea, 3' })).toBeTruthy();
    await act(() => i18next.changeLanguage('ko'));
    try {
      expect(
        screen.getByText('페이지가 깁니다. 레터에는 앞의 400개 부분만 담겼고 나머지는 빠졌습니다.'),
      ).toBeTruthy();
      expect(
        screen.getByText(
          '레터에 담지 못한 부분(메일에서 보여 줄 수 없음): 임베드 2개, 동영상 1개.',
        ),
      ).toBeTruthy();
      expect(
        screen.getByText(
          '이미지 캡션이나 표 2개가 레터에 담을 수 있는 것보다 길어 앞부분만 레터에 담겼습니다.',
        ),
      ).toBeTruthy();
    } finally {
      await act(() => i18next.changeLanguage('en'));
    }
  });
});

describe('a saved letter the letter rules now refuse in part (B9)', () => {
  it('opens with the parts that pass, says one was left out in en and ko, offers Save, which keeps the rest', async () => {
    const kept = model(['Kept first', 'Kept last']);
    const letter = {
      ...kept,
      // stored before the image rule refused a user name (3031f41d)
      blocks: [
        kept.blocks[0]!,
        { id: 'refused', type: 'image', src: 'https://user:pw@cdn.example.com/a.png' },
        kept.blocks[1]!,
      ],
      cta: { text: 'Read on', link: 'https://example.com/read' },
    } as unknown as TLetterModel;
    // zod reads a model's `version` once each time it parses the whole of it
    let wholeReads = 0;
    const stored = new Proxy(letter, {
      get(target, key, receiver) {
        if (key === 'version') wholeReads += 1;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    // saved and sendable: a sender, and the mail rendered when the refused part still passed
    api.listSenders.mockResolvedValue([{ email: 'a@x.com', status: 'verified' }]);
    const data = letterData(stored);
    data.private = { ...data.private!, mail_from: 'a@x.com', mail_html: '<p>Kept first</p>' };
    api.loadLetterBlock.mockResolvedValue(data);
    api.saveLetter.mockImplementation(async (body) => ({
      ...data,
      private: { ...data.private!, letter: body.letter.model },
    }));
    renderLetter();
    const en =
      '1 part of the saved letter could not be opened (it no longer meets the letter rules, e.g. an image address with a user name) and was left out; saving stores the letter without it.';
    expect((await screen.findByText(en)).getAttribute('role')).toBe('note');
    const rows = screen.getByRole('list', { name: 'The letter' });
    expect(
      within(rows)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Delete row 1: Kept first', 'Delete row 2: Kept last']);
    // the draft, what it is compared with and the count come from one read of the stored letter
    expect(wholeReads).toBe(1);

    await act(() => i18next.changeLanguage('ko'));
    try {
      expect(
        screen
          .getByText(
            '저장된 레터의 1개 부분을 열 수 없어(사용자 이름이 든 이미지 주소처럼 지금의 레터 규칙에 맞지 않음) 제외했습니다. 저장하면 이 부분 없이 레터가 저장됩니다.',
          )
          .getAttribute('role'),
      ).toBe('note');
    } finally {
      await act(() => i18next.changeLanguage('en'));
    }

    // the notice's Save is there with no edit made; Send, which sends the stored mail with the
    // refused part, waits for it
    await screen.findByRole('combobox', { name: 'From' });
    expect(screen.queryByRole('button', { name: 'Send letter' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('button', { name: 'Send letter' });
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    const saved = api.saveLetter.mock.lastCall![0].letter.model;
    expect(saved.blocks).toEqual(kept.blocks);
    expect(saved.cta).toEqual(letter.cta);
    // stored without the refused part: nothing is left out any more
    expect(screen.queryByText(en)).toBeNull();
    expect(screen.getByText('Kept last')).toBeTruthy();
  });
});
