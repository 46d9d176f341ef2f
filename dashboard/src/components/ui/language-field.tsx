// A block's language (en or ko), the one control for it: a reaction block's main settings and a
// letter's panel (where it is the mail's footer and <html lang>) both show this select.
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
      }))}
      onChange={onChange}
    />
  );
}
