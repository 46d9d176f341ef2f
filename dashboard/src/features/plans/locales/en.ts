// English texts of /profile/plan, /purchase and /purchase/payment (index.ts registers them).
import { PLAN_MESSAGES } from '../model/plans';

export const en = {
  title: 'Plan',
  loadFailed: 'Could not load your plan: {{reason}}',
  // the servers' own words (supabase/functions/_shared/contracts/plans.ts)
  messages: { ...PLAN_MESSAGES } as Record<keyof typeof PLAN_MESSAGES, string>,
  failed: 'Could not do that: {{reason}}',
  types: {
    basic: 'Basic',
    custom: 'Custom',
    coupon: 'Coupon',
    promote_coupon: 'Promotion',
    subscription: 'Subscription',
  },
  starter: 'Starter',
  starterLine: 'Free: {{blocks}} blocks and {{emails}} emails and answers a month.',
  upgrade: 'Upgrade',
  active: {
    heading: 'Your plan',
    limits: '{{blocks}} blocks · {{emails}} emails and answers a month',
    perMonth: '{{price}} a month',
    period: '{{start}} – {{end}}',
    renews: 'Renews on {{date}}.',
    // a plan that no longer renews keeps the purchase closed until it has ended: say when it opens (U2)
    stopped:
      'Stopped: it ends on {{date}}. You keep everything until then, and can buy a plan again from {{after}}.',
    // the next period charged already (3 days before it) for a changed plan starts before the end
    stoppedPaid:
      'Stopped: it ends on {{date}}. The plan of the period paid already applies from {{paid}}. You can buy a plan again from {{after}}.',
    failed:
      'The renewal payment failed: the plan ends on {{date}}. You can buy a plan again from {{after}}.',
    // a PayPal renewal that failed while PayPal retries it (the subscription stays active)
    retrying:
      'The renewal payment failed. PayPal will try again on {{retry}}. Your plan stays on until {{until}}, and renews as soon as a payment goes through.',
    retryingSoon:
      'The renewal payment failed. PayPal will try again in a few days. Your plan stays on until {{until}}, and renews as soon as a payment goes through.',
    retryingWhat:
      'To keep it, check the card or the balance in your PayPal account. If you no longer want it, stop it, and PayPal will not try again.',
    ends: 'Ends on {{date}}.',
    next: 'From {{date}}: {{blocks}} blocks, {{emails}} emails and answers a month, {{price}} a month.',
    nextPaypal:
      'Waiting for your approval on PayPal: {{blocks}} blocks, {{emails}} emails and answers a month, {{price}} a month, from the next payment. Not approved yet? Open Change to get the link again, or choose your current plan there to keep it.',
    method: { iamport: 'Paid by card', paypal: 'Paid with PayPal' },
    coupon:
      'Coupon {{name}}: {{blocks}} blocks and {{emails}} emails and answers a month until {{date}}.',
    // a coupon row without an end date (written by hand): the server never ends it
    couponNoEnd:
      'Coupon {{name}}: {{blocks}} blocks and {{emails}} emails and answers a month, with no end date.',
  },
  // public.paypal_refunds rows the refund job could not give back (status failed)
  refundFailed: {
    heading: 'A PayPal payment was not given back',
    text: 'We cancelled your PayPal subscription {{id}} of {{date}} without a plan, and could not give its payment back automatically. Nothing is lost: write to us with this subscription id and we give it back by hand.',
    // plan.paypal-ended's: a payment PayPal took after the plan had ended
    ended:
      'PayPal took a payment on your subscription {{id}} after your plan had ended. We cancelled the subscription, and on {{date}} we could not give that payment back automatically. Nothing is lost: write to us with this subscription id and we give it back by hand.',
    email: 'Write to {{email}}',
    help: 'Contact us through Help',
  },
  notices: {
    purchased: 'Your plan is active. Thank you!',
    paypalCancelled: 'The PayPal payment was cancelled. Nothing was charged.',
    paypalApproved: 'PayPal has your approval. The change starts with your next payment.',
    // the revise's "Cancel and return" (change-paypal-payment's cancel_url, U8)
    paypalChangeCancelled:
      'You did not approve the change on PayPal, so your plan stays as it is. To get the approval link again, or to drop the change, open Change.',
    // the return dropped the change on the server (change-paypal-payment, declined)
    paypalChangeDropped:
      'You did not approve the change on PayPal, so it is dropped and your plan stays as it is. To ask for it again, open Change.',
    stopped: 'Your plan is stopped. It runs until {{date}}.',
    changed: 'Your plan changes on {{date}}.',
    // a Change back to the plan held: the change asked before is dropped (U8, U9)
    kept: 'The change was dropped: your plan stays as it is.',
    changeLink: 'PayPal opened in a new tab: approve the change there.',
    changeLinkBlocked: 'Your browser kept PayPal from opening. Open it here to approve the change:',
    openPaypal: 'Open PayPal',
    coupon: 'The coupon is applied.',
  },
  usage: {
    heading: 'Usage',
    blocks: 'Blocks',
    blocksValue: '{{used}} of {{limit}} blocks',
    emails: 'Emails and answers this month',
    emailsValue: '{{used}} of {{limit}} emails and answers',
    /** docs/plans.md: the monthly count is form and A/B answers and letter emails (rev-owner D7) */
    emailsHint:
      'Answers to your forms and A/B blocks count here too, beside the emails your letters send. At the limit, forms and A/B blocks stop taking answers until the next month (UTC).',
  },
  actions: {
    stop: 'Stop',
    change: 'Change',
    coupon: 'Use a coupon',
  },
  stop: {
    title: 'Stop your plan?',
    text: 'No more payments. You keep your blocks and emails until {{date}}; after that your account is on Starter ({{blocks}} blocks, {{emails}} emails and answers a month) and blocks beyond the limit are deactivated, newest first. Nothing is deleted.',
    textWithCoupon:
      "No more payments. You keep your blocks and emails until {{date}}; after that your coupon's limits apply until {{until}}, and then your account is on Starter ({{blocks}} blocks, {{emails}} emails and answers a month). Each time, blocks beyond the limit are deactivated, newest first. Nothing is deleted.",
    // a renewal charged already (3 days before its period) for a changed plan, which starts before
    // the end: the paid period and its limits, then as above
    textPaid:
      'No more payments. Your next period, from {{paid}} to {{date}}, is paid already: you have {{paidBlocks}} blocks and {{paidEmails}} emails and answers a month then. After that your account is on Starter ({{blocks}} blocks, {{emails}} emails and answers a month). Each time, blocks beyond the limit are deactivated, newest first. Nothing is deleted.',
    textPaidWithCoupon:
      "No more payments. Your next period, from {{paid}} to {{date}}, is paid already: you have {{paidBlocks}} blocks and {{paidEmails}} emails and answers a month then. After that your coupon's limits apply until {{until}}, and then your account is on Starter ({{blocks}} blocks, {{emails}} emails and answers a month). Each time, blocks beyond the limit are deactivated, newest first. Nothing is deleted.",
    textPaidWithLastingCoupon:
      "No more payments. Your next period, from {{paid}} to {{date}}, is paid already: you have {{paidBlocks}} blocks and {{paidEmails}} emails and answers a month then. After that your coupon's limits apply (it has no end date). Each time, blocks beyond the limit are deactivated, newest first. Nothing is deleted.",
    // a coupon without an end date runs on after the plan (model/plans.ts couponsRunUntil)
    textWithLastingCoupon:
      "No more payments. You keep your blocks and emails until {{date}}; after that your coupon's limits apply (it has no end date). Blocks beyond the limit are then deactivated, newest first. Nothing is deleted.",
    // a stop cannot be undone (U2): nothing renews it again; PayPal cannot reactivate a cancelled subscription
    final:
      'A stop cannot be undone: the plan will not renew and cannot be resumed. To go on after {{date}}, buy a plan again once it has ended (from {{after}}).',
    confirm: 'Stop plan',
    cancel: 'Keep plan',
  },
  change: {
    title: 'Change your plan',
    intro: 'The change starts with your next period, on {{date}}. This period stays as paid.',
    // a renewal charged already (3 days before its period): the change is for the period after
    introPaid:
      'Your next period, from {{paid}}, is paid already and keeps the plan shown. The change starts with the period after it, on {{date}}.',
    paypalIntro:
      'PayPal asks you to approve the new price in a new tab. The change starts with the first payment after that.',
    save: 'Change plan',
    same: 'That is your plan already.',
    keep: 'That is your plan now: the change you asked for is dropped and your plan stays as it is.',
    samePaid: 'That is the plan of your next period, paid already.',
    overLimit:
      'You have {{used}} blocks; the new plan allows {{limit}}. When it starts, blocks beyond the limit are deactivated, newest first. Nothing is deleted.',
    overLimitCoupon:
      'You have {{used}} blocks; with your coupon, the new plan allows {{limit}}. When it starts, blocks beyond the limit are deactivated, newest first. Nothing is deleted.',
    // a coupon running when the new plan starts ends later (the server expires it the next day)
    overLimitLater:
      'You have {{used}} blocks; with your coupon the new plan allows them, but from {{date}}, when the coupon has ended, it allows {{lowest}}. Then blocks beyond the limit are deactivated, newest first. Nothing is deleted.',
    overLimitCouponEnds:
      'You have {{used}} blocks; with your coupon, the new plan allows {{limit}} when it starts, and {{lowest}} from {{date}}, when the coupon has ended. Each time, blocks beyond the limit are deactivated, newest first. Nothing is deleted.',
  },
  coupon: {
    title: 'Use a coupon',
    label: 'Coupon code',
    hint: '1 to 99 characters.',
    apply: 'Apply',
  },
  history: {
    heading: 'History',
    caption: 'Your plans, newest first',
    start: 'Start',
    end: 'End',
    type: 'Type',
    status: 'Status',
    blocks: 'Blocks',
    emails: 'Emails',
    price: 'Price',
    active: 'Active',
    expired: 'Expired',
    empty: 'No plans yet.',
    more: 'Show more',
    loading: 'Loading more…',
    free: 'Free',
  },
  steps: {
    label: 'Purchase steps',
    select: 'Select plan',
    payment: 'Payment',
  },
  select: {
    title: 'Select plan',
    typeLabel: 'Plan',
    basicLine: '{{blocks}} blocks, {{emails}} emails and answers a month',
    customLine:
      'Pick how many blocks, emails and answers: $1 a month buys 4 blocks or 1,000 emails and answers.',
    customLineKo:
      'Pick how many blocks, emails and answers: 1,000 won a month buys 4 blocks or 1,000 emails and answers.',
    start: 'Starts',
    blocks: 'Extra blocks',
    blocksHint:
      'In steps of 4, at most {{max}}, on top of the 3 of Starter: {{total}} blocks in all.',
    emails: 'Extra emails and answers a month',
    emailsHint:
      'In steps of 1,000, at most {{max}}, on top of the 100 of Starter: {{total}} emails and answers a month in all: the emails your letters send and the answers your forms and A/B blocks take.',
    // a typed count the basket did not take as typed (docs/plans.md, "Typed counts")
    blocksNote: {
      up: '{{typed}} is between steps of 4 and more than {{previous}}, so it became {{value}}, the step above.',
      down: '{{typed}} is between steps of 4 and less than {{previous}}, so it became {{value}}, the step below.',
      max: '{{typed}} is more than the most you can add, {{max}}, so it became {{value}}.',
      negative: '{{typed}} is below 0: enter 0 or more. It stays {{value}}.',
      empty: 'Enter a number, 0 or more. It stays {{value}}.',
    },
    emailsNote: {
      up: '{{typed}} is between steps of 1,000 and more than {{previous}}, so it became {{value}}, the step above.',
      down: '{{typed}} is between steps of 1,000 and less than {{previous}}, so it became {{value}}, the step below.',
      max: '{{typed}} is more than the most you can add, {{max}}, so it became {{value}}.',
      negative: '{{typed}} is below 0: enter 0 or more. It stays {{value}}.',
      empty: 'Enter a number, 0 or more. It stays {{value}}.',
    },
    included: 'Included',
    groups: {
      general: 'General',
      comment: 'Comment block',
      like: 'Like block',
      form: 'Form block',
    },
    features: {
      general: [
        'Audience management',
        'Customize style',
        'Notion integration',
        'Custom Open Graph',
      ],
      comment: ['Likes and replies on or off', 'Block anonymous visitors'],
      like: ['Button alignment'],
      form: ['Open a link on submission', 'Multiple endings'],
    },
    price: 'Price',
    perMonth: '{{price}} a month',
    minimumPrice: 'Minimum price for subscription is $3',
    minimumPriceKo: 'Minimum price for subscription is 3,000 won',
    continue: 'Continue',
  },
  payment: {
    title: 'Payment',
    summary: 'Your order',
    plan: 'Plan',
    period: 'Period',
    periodValue: '{{start}} – {{end}}, then every month until you stop it',
    blocks: 'Blocks',
    emails: 'Emails and answers a month',
    price: 'Price',
    priceValue: '{{won}} a month by Korean card or wallet, {{dollars}} a month with PayPal',
    choose: 'How would you like to pay?',
    card: 'Korean credit card',
    cardHint: '{{price}} a month, charged each month to the card.',
    wallet: 'Wallet (KakaoPay)',
    walletHint: '{{price}} a month, charged each month to the wallet.',
    paypal: 'PayPal subscription',
    paypalHint: '{{price}} a month, an international subscription with PayPal.',
    payCard: 'Pay by card',
    payWallet: 'Pay with the wallet',
    paying: 'Paying…',
    approvedChecking:
      'Checking the PayPal payment you approved. Do not pay again: your plan appears here in a moment.',
    // still kept after a failed check (rev-break3 P3): billed, so a notice, not "did not go through"
    approvedKept: 'We could not check your PayPal payment yet: it is kept, do not pay again.',
    approvedPending:
      'PayPal has not completed your payment yet: it is kept, do not pay again. Your plan appears here as soon as it is.',
    approvedRetryIn: 'Check again {{in}}.',
    approvedRetryNow: 'Check again now, or reload this page later.',
    approvedRetry: 'Check again',
    cancelled: 'The payment window was closed. Nothing was charged.',
    timeout: 'The payment window timed out. Nothing was charged; try again.',
    notConfigured: 'This way to pay is not set up on this server.',
    paypalLoading: 'Loading PayPal…',
    paypalFailed: 'PayPal could not be loaded: {{reason}}',
    failed: 'The payment did not go through: {{reason}}',
    // check-paypal-payment's refusals of a second purchase (contracts' SECOND_PURCHASE_CODES):
    // why, and the refund
    second: {
      activePlan:
        'you already have an active plan, so this PayPal subscription was cancelled and its payment will be given back (PayPal may take a few days).',
      paymentInProgress:
        'another payment of yours is being completed, so this PayPal subscription was cancelled and its payment will be given back (PayPal may take a few days). Your plan appears on the Plan page once the other payment is done.',
    },
    // the same, when PayPal gave the payment back at once (SECOND_PURCHASE_REFUNDED_CODES)
    secondRefunded: {
      activePlan:
        'you already have an active plan, so this PayPal subscription was cancelled and its payment was given back.',
      paymentInProgress:
        'another payment of yours is being completed, so this PayPal subscription was cancelled and its payment was given back. Your plan appears on the Plan page once the other payment is done.',
    },
    // the server's checkout_failed: our own reading ended the checkout, not a refusal
    checkoutEnded:
      'we could not confirm this payment for your order (it was cancelled, not found, or the checkout had already ended). No plan was added; start again.',
    // the payment functions' other codes (model/messages.ts paymentReason)
    reasons: {
      refunded:
        'the payment was taken but your plan could not be recorded, so it was given back. No plan was added; start again.',
      refund_pending:
        'your plan could not be recorded, so the PayPal subscription was cancelled and its payment will be given back (PayPal may take a few days). No plan was added; start again.',
      refund_failed:
        'no plan was added and the PayPal subscription was cancelled, but PayPal refused to give its payment back, so it could not be given back automatically. We have been told; the Plan page says whom to write to.',
      // check-paypal-payment after plan.paypal-orphan's hour: the buyer's tab came back late
      approval_expired_refunded:
        'the purchase was not completed within an hour of your approval (the page was closed or the connection was lost), so the PayPal subscription was cancelled and its payment was given back. No plan was added; buy again.',
      approval_expired:
        'the purchase was not completed within an hour of your approval (the page was closed or the connection was lost), so the PayPal subscription was cancelled and its payment will be given back (PayPal may take a few days). No plan was added; buy again.',
      provider_unavailable:
        'the payment service did not answer. Nothing changed on your plan; try again in a moment.',
      payment_pending:
        'the payment is not complete yet. Your plan appears on the Plan page as soon as it is; do not pay again.',
      plan_mismatch:
        'the PayPal subscription does not match the plan you chose, so it was cancelled and any payment made for it will be given back. No plan was added; start again.',
      subscription_in_use:
        'this PayPal subscription already pays for your plan, or its payment is still being completed. Nothing changed.',
      checkout_cancelled:
        'the PayPal subscription was cancelled before its first payment went through, so no plan was added and nothing was charged. If PayPal still takes that payment, it is given back.',
      invalid_billing_key:
        'the card or wallet you registered cannot be used (not found, deleted, or not the way to pay you chose). Nothing was charged; register it again.',
      invalid_subscription:
        'PayPal does not know this subscription. No plan was added; start again.',
      forbidden:
        'this payment is not for this account, or this account cannot buy a plan. Sign in with your Google or Apple account and start again.',
    },
    // a checkout that could not start: PortOne's window, PayPal's button (model/messages.ts
    // checkoutErrorReason)
    checkoutError: {
      notConfigured: 'this way to pay is not set up on this server. Pay another way.',
      unreachable:
        'the payment service could not be reached (the connection, or a blocker in the browser). Check the connection and reload the page; nothing was charged.',
      other:
        'the payment service stopped with an error. Nothing was charged; reload the page and try again, or pay another way.',
    },
    // PayPal's onError, by what happened (model/messages.ts paypalErrorText)
    paypalError: {
      closed:
        'the PayPal window closed before the payment was finished. Nothing was charged; try again.',
      blocked: 'your browser blocked the PayPal window. Allow pop-ups for this site and try again.',
      network:
        'PayPal could not be reached. Check your connection and try again; nothing was charged.',
      setup:
        'PayPal refused our subscription plan, a fault on our side. Nothing was charged; try again later, or pay another way.',
      other: 'PayPal stopped with an error. Nothing was charged; try again, or pay another way.',
    },
    declined: {
      card: 'The payment did not go through. Try another card, or ask your card issuer why it was declined.',
      wallet:
        'The payment did not go through. Try another way to pay, or ask the payment service why it was declined.',
      paypal:
        'The PayPal payment did not go through. Try another way to pay in PayPal, or ask PayPal why it was declined.',
    },
    back: 'Back to plan selection',
    termsNote:
      'By paying you agree to the Terms of Service and the Privacy Policy. The plan renews every month until you stop it on the Plan page.',
    terms: 'Terms & Privacy',
    business: 'Business information',
  },
};
