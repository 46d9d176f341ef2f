// A language (en or ko), the one control for it: a reaction block's main settings, a letter's panel
// (where it is the mail's footer and <html lang>) and the owner's profile show this select. Each
// language is named in itself (languages.*), so its option says so (`lang`) for a screen reader.
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type TLanguage } from '@reaction-blocks/contracts/enums';
import { SelectField } from './fields';

export function LanguageField({
  label,
  value,
  onChange,
  hint,
}: {
  label: string;
  value: TLanguage;
  onChange: (value: TLanguage) => void;
  hint?: string;
}) {
  const { t } = useTranslation();
  return (
    <SelectField
      label={label}
      value={value}
      hint={hint}
      options={LANGUAGES.map((language) => ({
        value: language,
        label: t(`languages.${language}`),
        lang: language,
      }))}
      onChange={onChange}
    />
  );
}
