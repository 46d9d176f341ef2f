// English texts. The specification's wording is kept verbatim where it gives one.
const en = {
  common: {
    appName: 'Reaction Blocks',
    loading: 'Loading…',
    close: 'Close',
    cancel: 'Cancel',
    back: 'Back',
    save: 'Save',
    reload: 'Reload',
    /** the heading and tab title of a screen that cannot be shown (app/route-error.tsx) */
    notShown: 'This page could not be shown',
    untitled: 'Untitled',
    blockName: 'Block name',
    dashboard: 'Dashboard',
    skipToContent: 'Skip to content',
    logoHome: 'Reaction Blocks home',
    tooLong: 'Too long message',
    copy: 'Copy',
    copied: 'Copied',
    /** after a refusal's reason: `in` is "in 42 minutes" */
    retryIn: 'Try again {{in}}.',
    /** a function's 503 `unavailable`: a call that failed on the way, worth another try */
    unavailable: 'The service is briefly unavailable.',
    retry: 'Try again',
    /** why a call failed, by the answer's code (lib/errors.ts failureReason) */
    reasons: {
      offline: 'The connection failed. Check it and try again.',
      signedOut: 'Your session has ended. Sign in again, then try again.',
      notAllowed: 'You may not do this with your account.',
      timeout: 'The server took too long. Try again in a moment.',
      tooMany: 'Too many tries in a short time.',
      gone: 'It is not there any more (removed meanwhile). Reload to see how things are now.',
      // a call on a block that is not the signed-in account's (its PT404): deleted meanwhile, or
      // another account signed in in another tab (the dashboard offers only the owner's blocks)
      blockGone:
        'This block is no longer among your blocks (deleted meanwhile, or another account signed in). Reload to see your blocks as they are now.',
      // a code chunk that no longer exists after a new deploy (lib/errors.ts)
      updated: 'The dashboard was updated meanwhile. Reload the page, then try again.',
      other: 'Something went wrong on our side. Try again in a moment.',
    },
  },
  blockTypes: {
    comment: 'Comment',
    qna: 'Q&A',
    like: 'Like',
    button: 'Button',
    ab: 'A/B',
    form: 'Form',
    notion_letter: 'Notion letter',
    typedream_letter: 'Typedream letter',
    brunch_letter: 'Brunch letter',
  },
  nav: {
    label: 'Main',
    reaction: 'Reaction',
    send: 'Send',
    showcase: 'Showcase',
    pricing: 'Pricing',
    start: 'Start',
    openMenu: 'Open menu',
    closeMenu: 'Close menu',
  },
  footer: {
    language: 'Language',
    product: 'Product',
    contact: 'Contact',
    policies: 'Policies',
    terms: 'Terms & Privacy',
    cookie: 'Cookie policy',
    business: 'Business information',
    copyright: '© {{year}} Reaction Blocks',
  },
  languages: { en: 'English', ko: '한국어' },
  home: {
    heroTitle: 'Reactions for every page',
    heroText:
      'Embed comment, Q&A, like, button, A/B and form blocks into any page and collect what your visitors think.',
    heroCta: 'Start for free',
    demoLabel: 'Product demo',
    demoPause: 'Pause demo',
    demoPlay: 'Play demo',
    demoShowing: 'Showing the {{type}} block',
    stepsTitle: 'Three steps',
    step1Title: '1. Create a block',
    step1Text: 'Sign in and pick one of six block types.',
    step2Title: '2. Embed it',
    step2Text: 'Paste one script tag and one element into your page, or share the link.',
    step3Title: '3. Collect reactions',
    step3Text: 'Read responses in the dashboard and get notified by email.',
    blocksTitle: 'Six blocks',
    showcaseLink: 'See every block live in the showcase',
    blockText: {
      comment: 'Let visitors leave comments and replies.',
      qna: 'Answer questions and mark them resolved.',
      like: 'A single like button with a count.',
      button: 'A button that opens a link and counts clicks.',
      ab: 'Ask visitors to choose between two options.',
      form: 'Collect answers with a short form.',
    },
    historyTitle: 'Reaction History',
    historyText:
      'Every reaction is kept with who left it and when, so you can see how your audience responded over time and export it as CSV.',
    ctaTitle: 'Start collecting reactions today',
    ctaButton: 'Start',
    demo: {
      comment: 'Great post! Thanks for sharing.',
      qna: 'How do I embed the block?',
      qnaAnswer: 'Paste the snippet into your page.',
      like: '12 Likes',
      button: 'Open Link',
      abQuestion: 'Which cover do you prefer?',
      abA: 'Good',
      abB: 'Bad',
      formQuestion: 'What should we write next?',
      formSubmit: 'Submit',
    },
  },
  help: {
    title: 'Help',
    open: 'Help',
  },
};

export default en;
export type Resources = typeof en;
