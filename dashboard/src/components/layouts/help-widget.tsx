// Floating help button opening the help page (en or ko) in a dialog.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HelpContent } from '../help/help-content';
import { Dialog } from '../ui/dialog';
import { CircleHelp } from '../ui/icons';

export function HelpWidget() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="help-fab"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <CircleHelp size={24} />
        <span className="visually-hidden">{t('help.open')}</span>
      </button>
      <Dialog
        open={open}
        title={t('help.title')}
        onClose={() => setOpen(false)}
        className="help-dialog"
        actions={
          <button type="button" className="button button-primary" onClick={() => setOpen(false)}>
            {t('common.close')}
          </button>
        }
      >
        <HelpContent headingLevel={3} />
      </Dialog>
    </>
  );
}
