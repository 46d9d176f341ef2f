// The hand-written parts of docs/elements/<name>.md that the tables cannot say (an example's CSS
// and listener, notes), and the demo ids the examples use. docs.mjs renders them beside the
// facts it reads from the code and checks them against it.

export const OWNER = '00000000-0000-4000-8000-000000000001';
const DEMO = {
  comment: '0101',
  qna: '0102',
  like: '0103',
  button: '0104',
  ab: '0105',
  form: '0106',
};
export const blockId = (name) => `00000000-0000-4000-8000-00000000${DEMO[name] ?? '0101'}`;

/** Hand-written parts of each page: what the tables cannot say. Checked against the code. */
export const PAGES = {
  comment: {
    css: `reaction-comment {
  --reaction-list-max-height: 320px;
}
reaction-comment::part(submit) {
  font-weight: 600;
}`,
    listen: ['reaction-message', (e) => `console.log(${e}.detail.action, ${e}.detail.id)`],
    notes: [
      'The list shows the newest messages first, 5 at a time; scrolling past 90% of the list (or the "Load more" button) loads the next 5. New messages, edits, deletions, replies and like counts from other viewers appear live: after the first data shows, a small Realtime client joins the block\'s public topic `block:<id>`, whose messages only name a change (Broadcast from the database), and reads each change with a cacheable request (only published messages, no emails; nothing sent on the topic by others is shown). The page\'s elements share one connection, open only while a comment or Q&A block is on screen and the tab visible; coming back reads the list again, so nothing missed meanwhile is lost. A message the owner holds or hides leaves the list at once.',
      'The count ("n messages", when the block shows counts) and `$responseCount$` in the welcome text and the placeholder follow the visitor\'s own posts and the live changes at once, counting every message and reply as the server does.',
      'Messages are at most 500 characters; a second send within 3 seconds is refused with "Please wait a moment before sending another message." (the text stays), and saving an emptied edit box with "The message cannot be empty." (an unchanged one just closes, not marked edited). Refusals and server errors show in a `role="alert"` live region where they happened (under the composer, or in the message being edited or replied to), in English or Korean. The name field is prefilled with the visitor\'s random animal name or, once signed in, the account name. Beside it an optional website (`home` part): a bare host gets `https://`, anything but an http(s) address with a host (no user part, no spaces) is refused at once with "Please enter a web address (http or https)" and never sent; the writer\'s name then links to it in every message. Name, website and the notification email are the writer\'s profile, kept sealed in `localStorage` once they write (see [embedding](../embedding.md#6-visitors-sessions-and-sign-in)) and offered again on the next page. Messages and names render as text; `http`/`https` links become links with `rel="noopener noreferrer nofollow ugc"`.',
      'An edit or a reply being typed keeps its text (and its box stays open) while the list changes under it: another visitor posts, a message arrives live or is liked. Drafts are kept per message, and Save stores what was typed. Message likes read "n Like" / "n Likes" ("좋아요 n").',
      "One level of replies. Authors edit and delete their own messages; the block's owner deletes any message, and with `adminOnlyReply` only the owner replies. `allowReaction`, `allowReply` and `showCount` turn message likes, replies and the count on or off. The owner's and the visitor's own messages carry the block's label names (default Admin and Me).",
      'When the block has `allowCreatorEmail`, an optional email field asks where to send reply notifications (checked after a 500 ms pause). Replies are mailed only to an address that confirmed it wants them from this writer on this owner’s blocks: until then the platform mails it a confirmation link when it may (at most one a day to an address, and a daily number per owner), and the `notice` part says "Replies reach this address only once it has confirmed them. If we can, we mail it a link to confirm." (in Korean too), the same whatever the address’s state; replies before the confirmation are not mailed ([security](../security.md#addresses-a-visitor-typed-nothing-is-mailed-before-the-address-says-yes)). When it has `blockAnonymous`, an overlay asks visitors to sign in with Google or Apple (popup, see [embedding](../embedding.md#6-visitors-sessions-and-sign-in)); the fields under it are `inert`, so the keyboard cannot reach them, and a send that gets through anyway shows the same prompt instead of calling the server.',
      "Writers' photos show as round avatars (a coloured initial without one); a photo that fails to load is replaced by a placeholder image, as the Q&A owner's photo and a form's image question are.",
      'The menu offers log out, sign-in, and for the owner "To Block setting", a link to the dashboard when `window.ReactionBlocks.dashboardUrl` (or the script tag\'s `data-dashboard-url`) is set.',
      'Signing in or out reads the list again for the new visitor and merges it with the one on screen: nothing that came live or by Load more is dropped (also inside `<reaction-block>` on the public block page).',
      'Visitor trust (issue 9): a write refused for going too fast (HTTP 429) says what it refuses and for how long ("You\'re posting too fast. You can post again in 8 seconds.", in Korean too) and keeps the text; on a block with the captcha on, the refusal opens the captcha (the `captcha` part; loaded only then) and the write is sent again once it passes. A hidden honeypot field (inert, `aria-hidden`, off screen) goes with every post. A message the block holds for approval shows to its writer as "Awaiting approval", with "Others will see your message once the owner approves it." in the `notice` part; others never get it. Published messages of others have a Report action (once: "Reported"). Names the server finds imitating the owner show "Not the owner"; pinned threads come first ("Pinned"). A picture is sent only for a signed-in visitor and only from Google\'s image hosts or the project\'s storage. See [embedding](../embedding.md#visitor-trust-what-the-elements-show-issue-9).',
      'Dummy mode: posts, likes and edits happen on screen only (ids `dummy-1`, …), with no live connection.',
    ],
  },
  qna: {
    listen: [
      'reaction-message',
      (e) => `${e}.detail.action === 'resolve' && console.log('resolved', ${e}.detail.id)`,
    ],
    notes: [
      "Everything the comment element does (see [comment](comment.md)), plus a header with the owner's photo and name and the Q&A subject (`$responseCount$` replaced by the block's response count, which follows new questions and answers at once).",
      'The owner marks top-level questions resolved or unresolved; a "Resolved" label shows to everyone, live.',
    ],
  },
  like: {
    css: `reaction-like::part(button) {
  padding: 4px 18px;
}`,
    listen: ['reaction-like', (e) => `console.log(${e}.detail.liked, ${e}.detail.likeCount)`],
    notes: [
      "The visitor's own state (liked or not) is read with the block on load. A click updates the screen at once and sends the wanted state (not a flip), so a repeated request cannot undo it; the server's count then replaces the local one, and a failure restores the previous state and shows the error.",
      'Aligned left, center or right as the block says. The button is always pill-shaped; restyle it through `::part(button)`.',
      'A like refused for going too fast (HTTP 429) says for how long ("You\'re liking too fast. You can like again in 20 seconds."); the anonymous sign-up refused by Supabase Auth\'s per-address limit says "You\'re going too fast, try again in a few seconds."; with the captcha on, the captcha opens first (see [embedding](../embedding.md#visitor-trust-what-the-elements-show-issue-9)).',
      'Dummy mode: the toggle works on screen only and `reaction-like` still fires.',
    ],
  },
  button: {
    listen: ['reaction-click', (e) => `console.log('clicked', ${e}.detail.url)`],
    notes: [
      'The button shows the block\'s button text (default "Button"). When the block has a URL (`https://` is added when it has no scheme; only `http`/`https` are accepted) it is a link opening in a new tab with `rel="noopener noreferrer"`, otherwise a plain button. Every click is recorded; the count shows when the block has `showCount`.',
      '`reaction-click` is cancelable: `event.preventDefault()` keeps the link from opening (the click is still recorded), for sites that route it themselves.',
      'Dummy mode: nothing is recorded.',
    ],
  },
  ab: {
    listen: ['reaction-submit', (e) => `console.log('voted', ${e}.detail.answers)`],
    notes: [
      "Two options side by side (the block's A/B question). One click votes: the server keeps one choice per visitor and increments the option's count in the same transaction, then both options show their votes and percentages.",
      'A visitor who has voted sees the votes and percentages on load, their choice pressed: the view tells each visitor their own vote (`me.vote`). Should the server still answer "Already voted" (a vote from another tab), the element reads the view again and shows that vote instead of the refusal.',
      'Dummy mode: the counts change on screen only.',
    ],
  },
  form: {
    listen: ['reaction-submit', (e) => `console.log(${e}.detail.answers)`],
    notes: [
      'Question types: poll (single or multi select), A/B, short text (300 characters), long text (1000, grows to 360 px), number (an integer of at most 18 digits, optionally signed), phone (digits, spaces and hyphens, up to 20), mail (50, `local@domain.tld` as SES takes it: no dot first, last or doubled, no hyphen at a domain label\'s edge), description and image. Characters are counted as the server counts them (an emoji is one). The server checks the same rules: one table of cases runs through both in `supabase/tests/answer-rules.test.ts`. Each field is checked after a 500 ms pause (200 ms for long text) with the spec\'s messages; Submit checks them all, shows "Please check response" and focuses the first invalid field.',
      "The server checks everything again (required questions, lengths, the owner's monthly quota). A failed submit shows the server's message and keeps the answers.",
      'After a submit the form shows the first ending whose conditions all hold (equal, empty, notEmpty, include), or the default ending; its link opens on submit or from a button, and "Submit again" shows unless the ending blocks it. An ending shows its title and its closing text; without a title, "Thank you" stands in only when there is no closing text either (the default ending\'s closing text is "Thank you" already).',
      'A hidden honeypot field (inert, `aria-hidden`, off screen) goes with every submit; a block with the honeypot on refuses it filled ("This was not sent: it looked automated."). One visitor submits a form five times at once, then three times an hour: beyond that "You\'ve sent this form several times. You can send it again in 20 minutes." (or the captcha, when the block has it), so nobody burns the owner\'s monthly responses.',
      "Dummy mode: nothing is written and the ending still shows. There a view whose block has `mode: 'ending'` opens on the ending with index `ending_mode` (the dashboard editor's preview of an ending).",
    ],
  },
  count: {
    html: `<!-- a blog's index page: one request for every count on it -->
<ul>
  <li>
    <a href="/posts/hello">Hello</a>
    <reaction-count block-id="${blockId('comment')}"></reaction-count>
  </li>
  <li>
    <a href="/posts/poll">Our poll</a>
    <reaction-count block-id="${blockId('ab')}"></reaction-count>
    · <reaction-count block-id="${blockId('like')}" number></reaction-count> ♥
  </li>
</ul>
<style>
  reaction-count[data-count='0'] {
    display: none;
  }
</style>`,
    jsx: `import { Count } from '@reaction-blocks/sdk/react/count';

export function PostList({ posts }: { posts: { url: string; title: string; blockId: string }[] }) {
  return (
    <ul>
      {posts.map((p) => (
        <li key={p.blockId}>
          <a href={p.url}>{p.title}</a> <Count blockId={p.blockId} />
        </li>
      ))}
    </ul>
  );
}`,
    attributes: `The project falls back to \`window.ReactionBlocks\`, then the build-time default
([embedding](../embedding.md#1-script-tag-cdn)).`,
    notes: [
      'Every `<reaction-count>` on the page, whatever its place, is read in one request: `GET {project}/rest/v1/rpc/get_block_counts?p_block_ids={id,id,...}` with the anon key only, up to 100 blocks a request (more make several), the ids sorted so the same blocks always make the same URL. The answer is the same for every visitor and says `Cache-Control: public, max-age=10, stale-while-revalidate=60`, so a CDN in front of the API serves a busy index page without the database ([scaling](../scaling.md#cacheable-reads)). Counts added to the page later (infinite scroll, a React list) go in the next request; a block already read is not asked for again.',
      'It shows the count the block itself shows: "12 comments" for a comment or Q&A block (messages and replies), "3 likes" for a like block, "7 responses" for a button, A/B or form block; `kind` picks another, `number` shows the number alone. English or Korean ("댓글 12개"), from `lang` on the element or the page. The host carries `data-count` once it is known, so `reaction-count[data-count=\'0\']` can hide a zero.',
      'A missing, deactivated or letter block, a malformed id or a failed request shows nothing (the failure is logged with `[reaction-blocks]`, and the next count that wants it asks again). The count is text, never HTML.',
      'No Lit inside ([its size](../benchmarks.md#sdk-sizes)), and the CDN loader loads it on its own chunk beside whatever else the page has, so a post page with a count and a comment block loads `count.js` and `comment.js`, not the all-in-one `block.js`.',
    ],
  },
  block: {
    listen: ['reaction-load', (e) => `console.log(${e}.detail.view.block.type)`],
    notes: [
      "Renders the element for the block's type with one API call. Without `block-id` it reads `block_id` and `id` (the owner) from the page URL, as the public viewer page `/block/?id={uid}&block_id={blockId}` does. A letter block (notion_letter, typedream_letter, brunch_letter) shows its letter as a web page: the HTML the server rendered and sanitised, in a sandboxed frame (the `letter` part) that runs no script.",
      '`theme`, `lang`, `dummy` and the project are passed on to the rendered element. Its events bubble out of `<reaction-block>` (they are composed), so listen on `<reaction-block>` for `reaction-like`, `reaction-submit`, `reaction-message`, …',
      "The rendered element's parts are forwarded under their own names (`exportparts`, listed below), so `reaction-block::part(submit)` styles the comment's send button or the form's Submit button; `::part(block)` styles the rendered element as a whole, and the shared `--reaction-*` tokens set on `<reaction-block>` reach it through inheritance.",
      'Changing `block-id` loads and shows the other block (the React `Block` wrapper too); its events reach every `onReaction…` prop of the wrapper.',
      "Imported from npm (`@reaction-blocks/sdk/block`, the React `Block`), it loads the element of the block's type once the view arrives, and no other type: an app bundler makes each a chunk of its own. The CDN's `block.js` holds all six, since the loader gives it to pages with several block types.",
    ],
  },
};
