// The letter's two optional buttons' dialog: the call to action (its text and link) or the image
// button (the image's address and its link). Opened from LetterButtonToggles.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/ui/form-dialog';
import { TextField } from '../../../components/ui/fields';
import {
  isLetterImageSrc,
  isLetterLink,
  LETTER_LIMITS,
  type TLetterModel,
} from '@reaction-blocks/contracts/letters';

/** The letter's optional buttons, by the name their texts are under (`letters.cta`, `letters.image`). */
export type LetterButtonKind = 'cta' | 'image';

/** The buttons as the letter model holds them. */
export type LetterButtons = Pick<TLetterModel, 'cta' | 'imageButton'>;

/** The model's key of each kind. */
export const BUTTON_KEY = { cta: 'cta', image: 'imageButton' } as const satisfies Record<
  LetterButtonKind,
  keyof LetterButtons
>;

interface LinkField {
  /** The field's key in the button, and its label's under `letters.<kind>`. */
  key: 'text' | 'src' | 'link';
  max?: number;
  /** Checked as a link (http, https, mailto), or as an image address (http, https: the server's
   *  isLetterImageSrc). */
  check: 'text' | 'link' | 'image';
}

const FIELDS: Record<LetterButtonKind, LinkField[]> = {
  cta: [
    { key: 'text', max: LETTER_LIMITS.ctaText, check: 'text' },
    { key: 'link', check: 'link' },
  ],
  image: [
    { key: 'src', check: 'image' },
    { key: 'link', check: 'link' },
  ],
};

/**
 * File types that are no top-level domain. A bare name is taken as a web address (`example.com`
 * becomes https://example.com) unless it ends in one of these: `report.pdf`, `index.html` and
 * `photo.jpg` are file names, kept as typed and refused (a letter's link must be absolute), never
 * https://report.pdf. An ending that is a real top-level domain is a domain even where it also
 * names a file type, as a browser's address bar takes it: `example.md` (Moldova), `site.zip` and
 * `film.mov` (Google's), `app.py`, `run.sh`. No ending listed here is a top-level domain (checked
 * against the Public Suffix List, November 2026); a file after a domain (`example.com/report.pdf`)
 * is a link to that file.
 */
const FILE_ENDINGS =
  /\.(pdf|html?|php|aspx?|jsp|jpe?g|png|gif|webp|svg|avif|bmp|heic|tiff?|docx?|xlsx?|pptx?|hwpx?|rtf|epub|txt|csv|json|xml|mp[34]|wav|avi|mkv|webm|rar|gz|exe|dmg|apk|css|m?js|ts|sql|tar|tgz|ogg|flac|m4a|psd|iso|msi|log|ya?ml|toml|ini|bak|pem|crt|ics|vcf|od[tsp])$/i;
const EMAIL = /^[^\s@:/]+@[^\s@:/]+\.[^\s@:/]+$/;

/**
 * A link as the owner meant it: trimmed; an address pasted after the field's https:// loses the
 * doubled scheme; an email address (bare, or typed after the https://) becomes mailto:; a bare
 * domain (example.com/read, 네이버.com) gets https://. Before, all of these were refused as "not a
 * link", or (https://ann@example.com) taken as a website.
 */
export function meantLink(field: LinkField, value: string): string {
  let v = value.trim();
  if (field.check === 'text') return v;
  v = v.replace(/^(https?:\/\/)+(?=https?:\/\/)/i, '');
  if (field.check === 'link') {
    const after = v.replace(/^https?:\/\//i, '');
    if (/^mailto:/i.test(after)) return after;
    if (EMAIL.test(after.split('?')[0] ?? '')) return 'mailto:' + after;
  }
  const host = /^([\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+)(:\d+)?([/?#]\S*)?$/u.exec(v);
  // the last label a top-level domain's letters, or an IPv4 address's four numbers (`1.2` is none)
  const named = host && /^\p{L}{2,}$/u.test(host[1]!.split('.').pop()!);
  const ipv4 = host && /^\d{1,3}(\.\d{1,3}){3}$/.test(host[1]!);
  if (host && !host[1]!.startsWith('-') && (named || ipv4)) {
    if (!(FILE_ENDINGS.test(host[1]!) && !host[3])) return 'https://' + v;
  }
  return v;
}

/** An http(s) address the browser reads as written: no user name before the host (a@evil.example). */
const plainHttp = (v: string, schemes: string[]): boolean => {
  try {
    const url = new URL(v);
    return schemes.includes(url.protocol) && !url.username && !url.password;
  } catch {
    return false;
  }
};

/** What is wrong with a field's value, as a key of the messages below; undefined when fine. */
function problem(field: LinkField, value: string): 'required' | 'tooLong' | 'invalid' | undefined {
  const v = meantLink(field, value);
  if (v === '') return 'required';
  if (v.length > (field.max ?? LETTER_LIMITS.url)) return 'tooLong';
  if (field.check === 'link' && !isLetterLink(v)) return 'invalid';
  if (field.check === 'link' && /^https?:/i.test(v) && !plainHttp(v, ['http:', 'https:']))
    return 'invalid';
  if (field.check === 'image' && !isLetterImageSrc(v)) return 'invalid';
  return undefined;
}

export interface LinkDialogProps {
  kind: LetterButtonKind;
  buttons: LetterButtons;
  /** The button set from the dialog, or removed (null). */
  onChange: (buttons: Partial<LetterButtons>) => void;
  onClose: () => void;
}

export function LinkDialog({ kind, buttons, onChange, onClose }: LinkDialogProps) {
  const { t } = useTranslation();
  const fields = FIELDS[kind];
  const current = buttons[BUTTON_KEY[kind]] as Partial<Record<LinkField['key'], string>> | null;
  const [values, setValues] = useState(() =>
    Object.fromEntries(
      fields.map((f) => [f.key, current?.[f.key] ?? (f.check === 'text' ? '' : 'https://')]),
    ),
  );
  const [tried, setTried] = useState(false);
  const message = {
    required: t('letters.linkDialog.required'),
    tooLong: t('common.tooLong'),
    invalid: t('letters.linkDialog.invalid'),
  };
  const errors = Object.fromEntries(
    fields.map((f) => {
      const key = problem(f, values[f.key] ?? '');
      return [f.key, key && message[key]];
    }),
  );
  const valid = Object.values(errors).every((e) => !e);
  const apply = () => {
    const v = Object.fromEntries(fields.map((f) => [f.key, meantLink(f, values[f.key] ?? '')]));
    onChange(
      kind === 'cta'
        ? { cta: { text: v.text!, link: v.link! } }
        : { imageButton: { src: v.src!, link: v.link! } },
    );
  };
  return (
    <FormDialog
      title={t(`letters.${kind}.dialogTitle`)}
      onClose={onClose}
      submitLabel={t('letters.linkDialog.save')}
      before={
        current ? (
          <button
            type="button"
            className="button button-ghost"
            onClick={() => onChange({ [BUTTON_KEY[kind]]: null })}
          >
            {t('letters.linkDialog.remove')}
          </button>
        ) : null
      }
      onSubmit={() => {
        // the action stays enabled: a first try shows what is missing
        setTried(true);
        if (valid) apply();
      }}
    >
      {fields.map((f) => (
        <TextField
          key={f.key}
          label={t(`letters.${kind}.${f.key}`)}
          value={values[f.key] ?? ''}
          max={f.max ?? LETTER_LIMITS.url}
          type={f.check === 'text' ? 'text' : 'url'}
          placeholder={f.check === 'text' ? t(`letters.${kind}.placeholder`) : undefined}
          error={tried ? errors[f.key] : undefined}
          onChange={(v) => setValues((old) => ({ ...old, [f.key]: v }))}
        />
      ))}
    </FormDialog>
  );
}
