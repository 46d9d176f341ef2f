// Outside links and business details shown on the landing. Values marked TODO must be filled
// in by the operator before production; they are not known to the code.

export const policyLinks = {
  en: {
    terms: 'https://reactionblocks.notion.site/terms-en',
    cookie: 'https://reactionblocks.notion.site/cookie-policy-en',
  },
  ko: {
    terms: 'https://reactionblocks.notion.site/terms-ko',
    cookie: 'https://reactionblocks.notion.site/cookie-policy-ko',
  },
} as const;

export const socialLinks = [
  { id: 'email', label: 'Email', href: 'mailto:hello@reactionblocks.com' },
  { id: 'x', label: 'X', href: 'https://x.com/reactionblocks' },
  { id: 'instagram', label: 'Instagram', href: 'https://www.instagram.com/reactionblocks' },
] as const;

/** Korean business registration information (shown only in ko). TODO: real values. */
export const koreanBusinessInfo = {
  company: '리액션블록스',
  representative: '—',
  registrationNumber: '—',
  mailOrderNumber: '—',
  address: '—',
  contact: 'hello@reactionblocks.com',
} as const;
