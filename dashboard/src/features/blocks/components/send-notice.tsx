// The spec's "send-ending" modal, made a notice the operator configures (SITE_SEND_NOTICE and
// SITE_SEND_NOTICE_KO, build-time; docs/self-hosting.md): off by default, since letters work
// here. When set it shows once a session on the Send pages.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogWithClose } from '../../../components/ui/dialog-with-close';
import { site } from '../../../config/site';
import { currentLanguage } from '../../../lib/i18n';

const SEEN_KEY = 'reaction.sendNoticeSeen';

export function SendNotice({ notice = site.sendNotice }: { notice?: typeof site.sendNotice }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(() => {
    if (!notice) return false;
    try {
      return sessionStorage.getItem(SEEN_KEY) !== '1';
    } catch {
      return true;
    }
  });
  if (!notice || !open) return null;
  const close = () => {
    try {
      sessionStorage.setItem(SEEN_KEY, '1');
    } catch {
      // private mode: it shows again next time
    }
    setOpen(false);
  };
  return (
    <DialogWithClose open title={t('shell.sendNoticeTitle')} onClose={close}>
      <p>{notice[currentLanguage()]}</p>
    </DialogWithClose>
  );
}
