import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { LETTER_MESSAGES, ZSaveLetter } from '@reaction-blocks/contracts/letters';
import { registerLetterTranslations } from '../locales';
import { letterMessage } from './messages';

registerLetterTranslations();

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
    expect(letterMessage(i18next.t, message)).toBe(
      'The title is the mail’s subject: it cannot contain line breaks.',
    );
    await i18next.changeLanguage('ko');
    try {
      expect(letterMessage(i18next.t, message)).toBe(
        '제목은 메일 제목으로 쓰이므로 줄바꿈을 넣을 수 없습니다.',
      );
    } finally {
      await i18next.changeLanguage('en');
    }
  });
});
