import { css } from '../../core/element.js';

export default css`
  [part~='header'],
  [part~='toolbar'],
  [part~='message-header'],
  [part~='actions'],
  .row {
    display: flex;
    align-items: center;
    gap: 8px;
    flex-wrap: wrap;
  }
  [part~='toolbar'] {
    justify-content: space-between;
    margin-bottom: 8px;
  }
  [part~='header'] {
    margin-bottom: 12px;
  }
  [part~='subject'] {
    font-size: 16px;
    font-weight: 600;
    margin: 0;
  }
  [part~='count'] {
    font-weight: 600;
  }
  [part~='menu'] {
    border: 1px solid var(--_border);
    border-radius: var(--reaction-radius);
    padding: 8px;
    margin-bottom: 8px;
    display: flex;
    flex-direction: column;
    align-items: flex-start;
    gap: 4px;
  }
  [part~='composer'] {
    position: relative;
    display: grid;
    gap: 8px;
    margin-bottom: 12px;
  }
  [part~='composer'] .row {
    justify-content: space-between;
  }
  [part~='welcome'] {
    margin: 0;
  }
  .fields {
    display: contents;
  }
  /* name and website side by side: the composer keeps the skeleton's height */
  .who {
    display: flex;
    gap: 8px;
  }
  .who {
    flex-wrap: wrap;
  }
  /* one above the other when a phone leaves them under 140 px each (the list gives the room) */
  .who > .input {
    flex: 1 1 140px;
    min-width: 0;
  }
  /* Live regions stay in the tree, empty and flat, until they have something to say. */
  .err:empty,
  [part~='notice']:empty {
    margin: 0;
  }
  textarea.input {
    resize: vertical;
    min-height: 64px;
  }
  [part~='overlay'] {
    position: absolute;
    inset: 0;
    display: flex;
    flex-direction: column;
    align-items: center;
    justify-content: center;
    gap: 8px;
    background: var(--reaction-background);
    opacity: 0.96;
    border-radius: var(--reaction-radius);
  }
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  /* A panel of fixed height (the loader reserves the same before the code arrives): what the
     data brings (more messages, the email field, a long welcome) takes room from the list, which
     scrolls, so the page under the block never moves. */
  [part~='base']:not(.err, .muted) {
    display: flex;
    flex-direction: column;
    height: var(--reaction-height, 640px);
    overflow: hidden;
  }
  [part~='base'] > * {
    flex: none;
  }
  /* the list's bottom edge fades (a mask: any background, transparent too), saying it scrolls */
  [part~='base'] > [part~='list'] {
    flex: 1 1 0;
    min-height: 0;
    overflow: auto;
    padding-bottom: 24px;
    mask: linear-gradient(#000 calc(100% - 32px), #0000);
  }
  [part~='message'] {
    padding: 10px 0;
    border-top: 1px solid var(--reaction-secondary);
  }
  /* a reply thread hangs from a line under its parent's avatar */
  [part~='replies'] {
    margin: 8px 0 0 11px;
    padding-left: 15px;
    border-left: 2px solid var(--reaction-secondary);
  }
  [part~='replies'] > [part~='message']:first-child {
    border-top: 0;
  }
  [part~='replies'] [part~='message'] {
    padding: 6px 0;
  }
  [part~='avatar'] {
    width: 24px;
    height: 24px;
    border-radius: 50%;
    display: inline-grid;
    place-items: center;
    flex: none;
    font-size: 12px;
    font-weight: 600;
    object-fit: cover;
  }
  /* a name without spaces breaks anywhere instead of running out of the message */
  [part~='author'] {
    font-weight: 600;
    min-width: 0;
    overflow-wrap: anywhere;
  }
  /* Label colours (core/theme.ts). Light and dark: the page's label token wins, like every
     --reaction-* token there. */
  [part~='base'] {
    --_admin-label: var(--reaction-admin-label, var(--ADMIN_LABEL, var(--reaction-primary)));
    --_me-label: var(--reaction-me-label, var(--ME_LABEL, var(--reaction-primary)));
  }
  /* Custom theme: the block's colours win; the page fills in the ones it leaves out. */
  [part~='base'].custom {
    --_admin-label: var(--ADMIN_LABEL, var(--reaction-admin-label, var(--reaction-primary)));
    --_me-label: var(--ME_LABEL, var(--reaction-me-label, var(--reaction-primary)));
  }
  /* labels: outlined chips in the label's colour, readable on any background */
  [part~='label'] {
    font-size: 11px;
    line-height: 16px;
    font-weight: 600;
    padding: 0 7px;
    border-radius: 999px;
    color: var(--_me-label);
    border: 1px solid;
  }
  [part~='label'].admin {
    color: var(--_admin-label);
  }
  [part~='label'].note {
    color: var(--reaction-muted);
    border-style: dashed;
  }
  [part~='content'] {
    margin: 4px 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  [part~='content'] a {
    color: inherit;
  }
  [part~='actions'] {
    gap: 4px;
    margin-left: -4px;
  }
  .btn.link:hover {
    color: var(--reaction-text);
    box-shadow: none;
    text-decoration: underline;
  }
  .btn.link[aria-pressed='true'] {
    color: var(--reaction-text);
    font-weight: 600;
  }
  /* stays at the top of the scrolled list, over the messages, taking no room */
  .pill {
    position: sticky;
    top: 4px;
    z-index: 1;
    height: 0;
    display: flex;
    justify-content: center;
  }
  [part~='new-pill'] {
    min-height: 28px;
    padding: 2px 12px;
    border-radius: 999px;
    font-size: 12px;
    box-shadow: 0 2px 8px rgb(0 0 0 / 0.2);
    animation: drop 0.2s ease-out;
  }
  @keyframes drop {
    from {
      transform: translateY(-8px);
      opacity: 0;
    }
  }
  [part~='load-more'] {
    width: 100%;
    margin: 8px 0 2px;
  }
  [part~='empty'] {
    display: grid;
    place-items: center;
    height: 100%;
    min-height: 64px;
    border-top: 1px solid var(--reaction-secondary);
  }
`;
