// The left-hand settings accordion, titled by the block type's name: main settings,
// Notification, Spam and abuse (paid), Integration (paid), Webhooks (paid) and Open Graph (paid).
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BLOCK_LIMITS } from '@reaction-blocks/contracts/schemas';
import {
  normalizeOpenGraph,
  textOrNull,
  type PrivateDraft,
  type PrivateKey,
} from '../../model/settings';
import { PaidBadge, PaidSection } from '../paid-hint';
import { AccordionSection } from './accordion';
import { TextField } from './fields';
import { IntegrationSection, type IntegrationApi } from './integration-section';
import { MainSettings, type MainSettingsProps } from './main-settings';
import { NotificationAddress, type NotificationAddressApi } from './notification-address';
import { TrustSettings } from './trust-settings';
import { WebhooksSection, type WebhooksApi } from './webhooks-section';

/** The Open Graph fields, in the section's order. */
const OPEN_GRAPH_FIELDS: {
  key: 'title' | 'description' | 'image_url';
  max: number;
  multiline?: boolean;
  url?: boolean;
}[] = [
  { key: 'title', max: BLOCK_LIMITS.openGraphTitle },
  { key: 'description', max: BLOCK_LIMITS.openGraphDescription, multiline: true },
  { key: 'image_url', max: BLOCK_LIMITS.openGraphImageUrl, url: true },
];

/** Spec: the notification email shows its error after a 500 ms pause in typing. */
const MAIL_ERROR_DELAY_MS = 500;

function useSettled<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delay);
    return () => window.clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

export interface SettingsPanelProps extends MainSettingsProps {
  blockId: string;
  privateSettings: PrivateDraft;
  onPrivateChange: <K extends PrivateKey>(key: K, value: PrivateDraft[K]) => void;
  /** The Integration section's calls (tests pass their own). */
  integrationApi?: IntegrationApi;
  /** The Webhooks section's calls (tests pass their own). */
  webhooksApi?: WebhooksApi;
  /** The Notification section's address state calls (tests pass their own). */
  notificationAddressApi?: NotificationAddressApi;
}

export function SettingsPanel(props: SettingsPanelProps) {
  const { type, settings, errors, paid, onChange, privateSettings, onPrivateChange, blockId } =
    props;
  // the sections a subscription unlocks say so to a free owner; a paying owner has them all
  const paidBadge = paid ? null : <PaidBadge />;
  const { t } = useTranslation();
  const headingId = useId();
  const { t: f } = useTranslation(undefined, { keyPrefix: 'workspace.fields' });
  const mailTo = privateSettings.mail_to ?? '';
  const settledMail = useSettled(mailTo, MAIL_ERROR_DELAY_MS);
  const mailError = settledMail === mailTo ? errors['private.mail_to'] : undefined;
  const og = settings.open_graph ?? {};
  const setOg = (key: (typeof OPEN_GRAPH_FIELDS)[number]['key'], value: string) =>
    onChange('open_graph', normalizeOpenGraph({ ...og, [key]: value }));

  return (
    <section className="workspace-settings" aria-labelledby={headingId}>
      <h2 id={headingId} className="workspace-panel-title">
        {t('workspace.settings.title', { type: t(`blockTypes.${type}`) })}
      </h2>
      <AccordionSection title={t('workspace.settings.main')} defaultOpen>
        <MainSettings {...props} />
      </AccordionSection>
      <AccordionSection title={t('workspace.settings.notification')}>
        <TextField
          label={f('mail_to')}
          type="email"
          value={mailTo}
          onChange={(value) => onPrivateChange('mail_to', textOrNull(value.trim()))}
          max={BLOCK_LIMITS.mailTo}
          hint={f('mailToHint')}
          error={mailError}
        />
        {mailTo ? (
          <NotificationAddress
            blockId={blockId}
            mailTo={mailTo}
            api={props.notificationAddressApi}
          />
        ) : null}
      </AccordionSection>
      <AccordionSection title={t('moderation.settings.title')} badge={paidBadge}>
        <TrustSettings type={type} settings={settings} paid={paid} onChange={onChange} />
      </AccordionSection>
      <AccordionSection title={t('workspace.settings.integration')} badge={paidBadge}>
        {(open) => (
          <IntegrationSection
            blockId={blockId}
            type={type}
            paid={paid}
            privateSettings={privateSettings}
            onPrivateChange={onPrivateChange}
            open={open}
            api={props.integrationApi}
          />
        )}
      </AccordionSection>
      <AccordionSection title={t('workspace.settings.webhooks')} badge={paidBadge}>
        {(open) => (
          <WebhooksSection blockId={blockId} paid={paid} open={open} api={props.webhooksApi} />
        )}
      </AccordionSection>
      <AccordionSection title={t('workspace.settings.openGraph')} badge={paidBadge}>
        <p className="hint">{t('workspace.settings.openGraphText')}</p>
        <PaidSection features={paid ? [] : OPEN_GRAPH_FIELDS.map(({ key }) => f(`og_${key}`))}>
          {OPEN_GRAPH_FIELDS.map(({ key, max, multiline, url }) => (
            <TextField
              key={key}
              label={f(`og_${key}`)}
              type={url ? 'url' : 'text'}
              placeholder={url ? 'https://' : undefined}
              value={og[key] ?? ''}
              onChange={(value) => setOg(key, value)}
              max={max}
              ignoreLonger
              multiline={multiline}
              error={errors[`open_graph.${key}`]}
              locked={!paid}
            />
          ))}
        </PaidSection>
      </AccordionSection>
    </section>
  );
}
