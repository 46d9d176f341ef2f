import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { LETTER_MESSAGES, ZSaveLetter } from '@reaction-blocks/contracts/letters';
import { registerLetterTranslations } from '../locales';
import { letterMessage, letterReason } from './messages';

registerLetterTranslations();

/** A failed call's reason as letterReason says it in English, then in Korean. */
async function reasonInEnAndKo(cause: unknown): Promise<string[]> {
  const said: string[] = [];
  try {
    for (const language of ['en', 'ko']) {
      await i18next.changeLanguage(language);
      said.push(letterReason(i18next.t, cause));
    }
  } finally {
    await i18next.changeLanguage('en');
  }
  return said;
}

describe('letter messages', () => {
  it('a subject with a line break: the shared schema refuses it, said in English and Korean', async () => {
    const checked = ZSaveLetter.safeParse({
      blockId: '00000000-0000-4000-8000-000000000001',
      letter: {
        title: 'Hi\r\nBcc: a@example.com',
        mailFrom: '',
        mailName: '',
        pageUrl: '',
        model: { version: 1, source: null, blocks: [], cta: null, imageButton: null },
      },
    });
    const message = checked.error?.issues[0]?.message ?? '';
    expect(message).toBe(LETTER_MESSAGES.subjectLineBreak);
    expect(letterMessage(i18next.t, message)).toBe('The subject cannot contain line breaks.');
    await i18next.changeLanguage('ko');
    try {
      expect(letterMessage(i18next.t, message)).toBe('메일 제목에는 줄바꿈을 넣을 수 없습니다.');
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('send-letter refusing a stored letter the rules now refuse says to save it again, in en and ko (BRK-5)', async () => {
    expect(await reasonInEnAndKo(new Error(LETTER_MESSAGES.saveLetterAgain))).toEqual([
      'The saved letter no longer meets the letter rules: open it and save the letter again.',
      '저장된 레터가 지금의 레터 규칙에 맞지 않습니다. 레터를 열어 다시 저장하세요.',
    ]);
  });

  it("a failed call's unknown message reads as failureReason says, in en and ko, never the server's English", async () => {
    const cause = new Error('Notion API responded 502 Bad Gateway');
    expect(letterReason(i18next.t, new Error(LETTER_MESSAGES.subjectLineBreak))).toBe(
      'The subject cannot contain line breaks.',
    );
    expect(await reasonInEnAndKo(cause)).toEqual([
      'Something went wrong on our side. Try again in a moment.',
      '서버에서 문제가 발생했습니다. 잠시 후 다시 시도해 주세요.',
    ]);
  });
});
