// <reaction-comment>: what a reader sees: the list, its reads, pages, live changes, links, themes.
// Writing is in comment.write.test, the limits and the captcha in comment.trust.test.
import { expect } from '@open-wc/testing';
import { a11ySnapshot } from '@web/test-runner-commands';
import type ReactionComment from './comment.component.js';
import type { Message, Theme } from '../../core/types.js';
import {
  $,
  $$,
  B1,
  KEY,
  block,
  mockApi,
  reset,
  type,
  until,
  wait,
  withSession,
} from '../../test/mock-api.js';
import { mountReady } from '../../test/mount.js';
import {
  commentHarness,
  msg,
  signIn,
  textarea,
  send,
  typeAndSend,
  item,
  has,
  likeOf,
  sendIn,
} from '../../test/comment.js';

/** A node of the accessibility tree (a11ySnapshot): what a screen reader hears of it. */
interface AXNode {
  role: string;
  name?: string;
  description?: string;
  children?: AXNode[];
}
import { direction, onPagesOf, ownUiLeftToRight } from '../../test/page-dir.js';

describe('reaction-comment', () => {
  const { h, mount, eachOnItsOwn } = commentHarness();

  it('is accessible', async () => {
    await expect(await mount()).to.be.accessible();
  });

  it('renders messages newest first with replies, labels, welcome text and safe links', async () => {
    withSession('visitor-1');
    const el = await mount({
      block: block({
        type: 'comment',
        custom_label_name: { admin: 'Host' },
        welcome_message: 'Welcome! $responseCount$ so far',
        response_count: 12,
      }),
    });
    expect($(el, '[part=welcome]').textContent).to.equal('Welcome! 12 so far');
    expect($$(el, '[part=list] > [part=message]').map((m) => m.id)).to.deep.equal([
      'm-m1',
      'm-m2',
      'm-m3',
      'm-m4',
      'm-m5',
    ]);
    expect(item(el, 'r1').querySelector('.admin')!.textContent).to.equal('Host');
    const content = item(el, 'm2').querySelector('[part=content]')!;
    expect(content.querySelector('b')).to.equal(null);
    expect(content.textContent).to.contain('<b>bold</b>');
    const links = content.querySelectorAll('a');
    expect(links.length).to.equal(1);
    expect(links[0]!.href).to.equal('https://example.com/a');
    expect(links[0]!.rel).to.equal('noopener noreferrer nofollow ugc');
    expect(links[0]!.target).to.equal('_blank');
    expect(likeOf(item(el, 'm2'))!.getAttribute('aria-pressed')).to.equal('true');
    expect(likeOf(item(el, 'm2'))!.textContent!.trim()).to.equal('0 Likes');
    expect(item(el, 'm1').querySelector('[part=date]')!.textContent).to.match(/^\d\d\.\d\d\.\d\d$/);
  });

  it("reads the public list with one GET and no session; with a session, adds the visitor's own held message and reply", async () => {
    const el = await mount();
    expect(h.api.calls.map((c) => [c.method, c.name, c.auth])).to.deep.equal([
      ['GET', 'get_block_public', 'Bearer ' + KEY],
    ]);
    expect(
      likeOf(item(el, 'm2'))!.getAttribute('aria-pressed'),
      'no likes without a session',
    ).to.equal('false');
    h.api.restore();

    withSession('visitor-1');
    const mine: Record<string, unknown>[] = [];
    const el2 = await mount(
      {},
      {
        get_block_me: (b) => {
          mine.push(b);
          return {
            me: { liked_message_ids: ['m2'], reported_message_ids: [] },
            messages: [
              msg('h1', {
                status: 'held',
                creator_id: 'visitor-1',
                created_at: new Date().toISOString(),
              }),
            ],
            replies: [
              msg('h2', {
                parent_id: 'm1',
                status: 'held',
                creator_id: 'visitor-1',
                created_at: new Date().toISOString(),
              }),
            ],
          };
        },
      },
    );
    expect(h.api.rpcNames()).to.deep.equal(['get_block_public', 'get_block_me']);
    expect(mine[0]!.p_message_ids).to.deep.equal(['m1', 'r1', 'm2', 'm3', 'm4', 'm5']);
    expect($$(el2, '[part=list] > [part=message]').map((m) => m.id)).to.deep.equal(
      ['h1', 'm1', 'm2', 'm3', 'm4', 'm5'].map((id) => 'm-' + id),
    );
    expect(item(el2, 'h1').textContent).to.contain('Awaiting approval');
    expect(item(el2, 'h2').textContent).to.contain('Awaiting approval');
    expect(likeOf(item(el2, 'm2'))!.getAttribute('aria-pressed')).to.equal('true');
  });

  it('posts with one write after the anonymous sign-up, clears the text, marks it Me and ignores a resubmission within 3000 ms', async () => {
    const el = await mount();
    expect(send(el).disabled).to.equal(true);
    type(textarea(el), 'Hello there');
    await el.updateComplete;
    expect(send(el).disabled).to.equal(false);
    send(el).click();
    await until(() => item(el, 'new1'));
    expect(h.api.calls.map((c) => c.name)).to.deep.equal([
      'get_block_public',
      '/auth/v1/signup',
      'post_message',
    ]);
    const body = h.api.calls[2]!.body;
    expect(body).to.include({
      p_block_id: 'b1',
      p_parent_id: null,
      p_content: 'Hello there',
      p_creator_email: null,
    });
    expect(body.p_timezone).to.be.a('string');
    expect(textarea(el).value).to.equal('');
    expect(item(el, 'new1').querySelector('[part=label]')!.textContent).to.equal('Me');
    expect($$(el, '[part=list] > [part=message]')[0]!.id).to.equal('m-new1');
    await typeAndSend(el, 'Hello again');
    await wait(50);
    expect(h.api.rpcCalls().filter((c) => c.name === 'post_message')).to.have.length(1);
  });

  it('keeps a thread per page with page-key: its view, Load more and posts carry the page', async () => {
    const page = 'cafe24:product:12';
    h.api = mockApi({
      get_block_public: (b) => ({
        block: block({ type: 'comment', response_count: 6, page_key: b.p_page_key as string }),
        messages: ['m1', 'm2', 'm3', 'm4', 'm5'].map((id) => msg(id)),
      }),
      list_messages: () => [msg('m6')],
      post_message: (b) =>
        msg('new1', {
          content: b.p_content as string,
          creator_id: 'anon-user-1',
          created_at: new Date().toISOString(),
        }),
    });
    const el = await mountReady<ReactionComment>('reaction-comment', { 'page-key': page });
    expect(h.api.calls[0]!.body).to.deep.equal({ p_block_id: B1, p_page_key: page });
    await el.loadMore();
    expect(h.api.rpcCalls().find((c) => c.name === 'list_messages')!.body).to.include({
      p_block_id: 'b1',
      p_page_key: page,
    });
    await typeAndSend(el, 'On this product');
    await until(() => item(el, 'new1'));
    expect(h.api.rpcCalls().find((c) => c.name === 'post_message')!.body).to.include({
      p_block_id: 'b1',
      p_page_key: page,
      p_content: 'On this product',
    });
  });

  it('counts the visitor\'s own post and live changes in "n messages" and $responseCount$ at once', async () => {
    const el = await mount({
      block: block({
        type: 'comment',
        show_count: true,
        response_count: 12,
        welcome_message: 'Welcome! $responseCount$ so far',
        placeholder: 'Be number $responseCount$',
      }),
    });
    const count = () => $(el, '[part=count]').textContent;
    const welcome = () => $(el, '[part=welcome]').textContent;
    expect(count()).to.equal('12 messages');
    await typeAndSend(el, 'Hello there');
    await until(() => item(el, 'new1'));
    await el.updateComplete;
    expect(count()).to.equal('13 messages');
    expect(welcome()).to.equal('Welcome! 13 so far');
    expect(textarea(el).placeholder).to.equal('Be number 13');
    // The same message arriving live is not counted twice; another visitor's reply is.
    el['applyChange']({ type: 'INSERT', row: el['_messages'][0]! });
    el['applyChange']({ type: 'INSERT', row: msg('lr', { parent_id: 'm2' }) });
    await el.updateComplete;
    expect(count()).to.equal('14 messages');
    // Deleting a thread removes it with its replies; each row's own DELETE counts it out (the
    // cascade's come live), and a delete of an older message not loaded here counts too, once
    // (break9 C1: on main it counted 0).
    el['applyChange']({ type: 'DELETE', row: { id: 'm1' } });
    await el.updateComplete;
    expect(count()).to.equal('13 messages');
    el['applyChange']({ type: 'DELETE', row: { id: 'r1', parent_id: 'm1' }, live: true });
    el['applyChange']({ type: 'DELETE', row: { id: 'm1', parent_id: null }, live: true });
    el['applyChange']({ type: 'DELETE', row: { id: 'old', parent_id: null }, live: true });
    await el.updateComplete;
    expect(count()).to.equal('11 messages');
    expect(welcome()).to.equal('Welcome! 11 so far');
  });

  it('applies live removals and count messages: counts are set, never added twice', async () => {
    const el = await mount({
      block: block({ type: 'comment', show_count: true, response_count: 12 }),
    });
    const count = () => $(el, '[part=count]').textContent;
    expect(count()).to.equal('12 messages');
    const m2: Message = el['_messages'].find((m: Message) => m.id === 'm2')!;
    // held or hidden by the owner: off the list, and the block counts published messages only
    el['applyChange']({ type: 'REMOVE', row: { id: 'm2', parent_id: null }, live: true });
    await el.updateComplete;
    expect(item(el, 'm2')).to.equal(null);
    expect(count()).to.equal('11 messages');
    // approved again: back on the list and counted once (an edit of it moves nothing)
    const back: Message = { ...m2, status: 'published' };
    el['applyChange']({ type: 'UPDATE', row: back, live: true, published: true });
    el['applyChange']({ type: 'UPDATE', row: { ...back, content: 'edited' }, live: true });
    await el.updateComplete;
    expect(item(el, 'm2')).to.not.equal(null);
    expect(count()).to.equal('12 messages');
    // another visitor's reply: the reply arrives live, its parent's count as a counts message
    // (either order), so the thread's count ends at 2 and not 3
    el['applyCounts']({ id: 'm1', replies: 1, reply_count: 2 });
    el['applyChange']({ type: 'INSERT', row: msg('r2', { parent_id: 'm1' }), live: true });
    // a like on the reply: the value after it is set, the same message twice changes nothing
    el['applyCounts']({ id: 'r2', likes: 1, like_count: 1 });
    el['applyCounts']({ id: 'r2', likes: 1, like_count: 1 });
    await el.updateComplete;
    const m1 = el['_messages'].find((m: Message) => m.id === 'm1')!;
    expect(m1.reply_count).to.equal(2);
    expect(m1.replies!.map((r: Message) => [r.id, r.like_count])).to.deep.equal([
      ['r1', 0],
      ['r2', 1],
    ]);
    expect(count()).to.equal('13 messages');
  });

  it("shows the placeholder image when a writer's photo does not load", async () => {
    const broken = location.origin + '/no-such-avatar.png';
    const el = await mount({
      messages: [msg('p1', { creator_photo_url: broken }), msg('p2')],
    });
    const img = item(el, 'p1').querySelector<HTMLImageElement>('img[part=avatar]')!;
    await until(() => img.src.startsWith('data:image/svg+xml'));
    await until(() => img.complete && img.naturalWidth > 0);
    expect(img.alt).to.equal('');
  });

  // A message's website and photo are drawn as the server gives them (rows it took before its
  // checks, or that an owner imported): the header links the name and shows the photo only for an
  // http(s) address, never javascript:, data:, vbscript: or blob:.
  it("links a writer's name and shows their photo only for an http(s) address", async () => {
    const unsafe: Array<[string, string]> = [
      ['javascript:alert(1)', 'javascript:alert(1)'],
      [' JaVaScRiPt:alert(1)', 'data:image/svg+xml,<svg onload=alert(1)>'],
      ['vbscript:msgbox(1)', 'blob:https://photos.example/1'],
      ['data:text/html,<script>alert(1)</script>', 'javascript:alert(1)'],
    ];
    const el = await mount({
      messages: [
        ...unsafe.map(([home, photo], i) =>
          msg('u' + i, { home_url: home, creator_photo_url: photo }),
        ),
        msg('s1', { home_url: 'example.com/me', creator_photo_url: 'https://x.test/a.png' }),
      ],
    });
    // what the header points at: its links' and images' addresses
    const urls = (id: string) =>
      [...item(el, id).querySelectorAll('[part=message-header] :is(a, img)')].map(
        (e) => e.getAttribute('href') ?? e.getAttribute('src'),
      );
    for (const i of unsafe.keys()) expect(urls('u' + i), unsafe[i]!.join(' ')).to.deep.equal([]);
    expect(urls('s1')).to.deep.equal(['https://x.test/a.png', 'https://example.com/me']);
  });

  it('hides reactions and replies when the block disallows them', async () => {
    const el = await mount({
      block: block({ type: 'comment', allow_reaction: false, allow_reply: false }),
    });
    expect(likeOf(item(el, 'm1'))).to.equal(undefined);
    expect(has(item(el, 'm1'), 'Reply')).to.equal(false);
  });

  it('loads 5 more at the Load more button and stops when a page is short', async () => {
    const el = await mount();
    $(el, '[part=load-more]').click();
    await until(() => item(el, 'm7'));
    const call = h.api.rpcCalls().find((c) => c.name === 'list_messages')!;
    expect(call.body.p_limit).to.equal(5);
    expect(call.body.p_before).to.equal(el['_messages'][4]!.created_at);
    await el.updateComplete;
    expect($(el, '[part=load-more]')).to.equal(null);
  });

  it('tells a reader scrolled down the list that new messages arrived above (+N new), and takes them up', async () => {
    const el = await mount();
    el.style.setProperty('--reaction-height', '400px');
    await el.updateComplete;
    const list = $(el, '[part=list]');
    el['onLive']({ type: 'INSERT', row: msg('top') });
    await el.updateComplete;
    expect($(el, '[part=new-pill]'), 'at the top: nothing to say').to.equal(null);
    list.scrollTop = 60;
    el['onLive']({ type: 'INSERT', row: msg('live1') });
    el['onLive']({ type: 'INSERT', row: msg('reply', { parent_id: 'm2' }) });
    el['onLive']({ type: 'INSERT', row: msg('live2') });
    await el.updateComplete;
    const pill = $(el, '[part=new-pill]');
    expect(pill.textContent!.trim(), 'replies are not counted').to.equal('↑ 2 new messages');
    // the panel keeps its height: the pill takes no room
    expect(el.getBoundingClientRect().height).to.equal(400);
    await expect(el).to.be.accessible();
    pill.click();
    await el.updateComplete;
    expect($(el, '[part=new-pill]')).to.equal(null);
    await until(() => list.scrollTop === 0, 10000);
  });

  it('wraps a long unbroken name inside its message (a reply’s too), at a phone’s width', async () => {
    const long = 'W'.repeat(80);
    const el = await mount({
      messages: [
        msg('m1', {
          creator_name: long,
          replies: [msg('r1', { parent_id: 'm1', creator_name: 'محمد 🧕🏽 ' + long })],
          reply_count: 1,
        }),
      ],
    });
    el.style.width = '300px';
    await el.updateComplete;
    for (const id of ['m1', 'r1']) {
      const message = item(el, id);
      const author = message.querySelector<HTMLElement>('[part=author]')!;
      expect(author.textContent).to.contain(long);
      const box = message.getBoundingClientRect();
      expect(author.getBoundingClientRect().right, id).to.be.at.most(box.right + 0.5);
      expect(author.scrollWidth, id).to.be.at.most(author.clientWidth + 1);
    }
  });

  it("lays its UI out left to right on a right-to-left page, and a visitor's or owner's Arabic or Hebrew right to left", async () => {
    // the page's dir was inherited: "!Welcome", Send on the left, placeholders cut at their start
    await onPagesOf(['rtl', 'ltr'], async (dir) => {
      const el = await mount({
        block: block({ type: 'comment', welcome_message: 'أهلا بكم!' }),
        messages: [
          msg('ar', { creator_name: 'محمد', content: 'مرحبا بالعالم' }),
          msg('en', { creator_name: 'Dana', content: 'Hello there' }),
          msg('he', { creator_name: 'שרה', content: 'שלום עולם' }),
        ],
      });
      ownUiLeftToRight(el);
      const box = textarea(el);
      expect(direction(box), `${dir}: an empty box, its placeholder from the left`).to.equal('ltr');
      expect(send(el).getBoundingClientRect().left, `${dir}: Send on the right`).to.be.above(
        box.getBoundingClientRect().left + box.clientWidth / 2,
      );
      type(box, 'שלום');
      expect(direction(box), `${dir}: typing Hebrew`).to.equal('rtl');
      const of = (id: string, part: string) =>
        direction(item(el, id).querySelector(`[part=${part}]`)!);
      for (const id of ['ar', 'he'])
        expect([of(id, 'author'), of(id, 'content')], `${dir}: ${id}`).to.deep.equal([
          'rtl',
          'rtl',
        ]);
      expect([of('en', 'author'), of('en', 'content')], dir).to.deep.equal(['ltr', 'ltr']);
      expect(direction($(el, '[part=welcome]')), `${dir}: the owner's Arabic`).to.equal('rtl');
      el.remove();
      h.api.restore();
      reset();
    });
  });

  it("describes each message's buttons by whose message it is, for a screen reader (en and ko)", async () => {
    // "0 Likes, Reply, Report" once per message, with nothing saying whose
    await eachOnItsOwn(['en', 'ko'] as const, async (lang) => {
      const el = await mount({
        block: block({ type: 'comment', language: lang }),
        messages: [msg('a', { creator_name: 'Ana' }), msg('b', { creator_name: 'Ben' })],
      });
      await sendIn(el, lang);
      const buttons: AXNode[] = [];
      const walk = (n: AXNode) => {
        if (n.role === 'button') buttons.push(n);
        n.children?.forEach(walk);
      };
      walk((await a11ySnapshot({})) as unknown as AXNode);
      // the buttons every message has (its like, Reply and Report): whose, from what they say
      const repeated = buttons.filter((b) => buttons.some((o) => o !== b && o.name === b.name));
      const whose = repeated.map((b) => `${b.name}: ${(b.description || '').split(' ')[0]}`);
      const names = repeated.slice(0, 3).map((b) => b.name);
      expect(names, lang).to.have.length(3);
      const of = (author: string) => names.map((n) => `${n}: ${author}`);
      expect(whose, lang).to.deep.equal([...of('Ana'), ...of('Ben')]);
      el.remove();
    });
  });

  it('loads more when the list is scrolled to 90%', async () => {
    const el = await mount();
    el.style.setProperty('--reaction-height', '400px');
    await el.updateComplete;
    const list = $(el, '[part=list]');
    list.scrollTop = list.scrollHeight;
    list.dispatchEvent(new Event('scroll'));
    await until(() => item(el, 'm6'));
  });

  it('applies live changes once (insert, update, delete)', async () => {
    const el = await mount();
    el['applyChange']({
      type: 'INSERT',
      row: msg('live', { created_at: new Date().toISOString() }),
    });
    el['applyChange']({ type: 'INSERT', row: msg('live') });
    el['applyChange']({ type: 'INSERT', row: msg('lr', { parent_id: 'm2' }) });
    el['applyChange']({ type: 'UPDATE', row: msg('m3', { content: 'changed' }) });
    el['applyChange']({ type: 'DELETE', row: { id: 'r1' } });
    await el.updateComplete;
    expect(el['_messages'].filter((m) => m.id === 'live')).to.have.length(1);
    expect(el['_messages'][0]!.id).to.equal('live');
    expect(el['_messages'].find((m) => m.id === 'm2')!.replies!.map((r) => r.id)).to.deep.equal([
      'lr',
    ]);
    expect(item(el, 'm3').querySelector('[part=content]')!.textContent).to.equal('changed');
    expect(item(el, 'r1')).to.equal(null);
  });

  it("colours the labels: the page's token wins in light and dark, the block's in custom", async () => {
    const RED = 'rgb(255, 0, 0)';
    const GREEN = 'rgb(0, 128, 0)';
    const BLUE = 'rgb(0, 0, 255)';
    const admin = (el: Element) => getComputedStyle(item(el, 'r1').querySelector('.admin')!);
    const me = (el: Element) =>
      getComputedStyle(item(el, 'm3').querySelector('[part=label]:not(.admin)')!);
    const labelled = (theme: Theme, colours?: Record<string, string>) =>
      block({ type: 'comment', theme, custom_label_color: colours });
    signIn('someone'); // every message but the owner's reply is the visitor's own: "Me"

    let el = await mount({ block: labelled('light') });
    expect(admin(el).color, 'default: primary').to.equal('rgb(38, 38, 43)');
    h.api.restore();

    el = await mount({ block: labelled('light', { '--ADMIN_LABEL': 'red', '--ME_LABEL': 'red' }) });
    expect(admin(el).color, "the block's colour").to.equal(RED);
    el.style.setProperty('--reaction-admin-label', 'green');
    el.style.setProperty('--reaction-me-label', 'blue');
    expect(admin(el).color, 'page over block (light)').to.equal(GREEN);
    expect(me(el).color, 'page over block (light)').to.equal(BLUE);
    el.theme = 'dark';
    await el.updateComplete;
    expect(admin(el).color, 'page over block (dark)').to.equal(GREEN);
    h.api.restore();

    el = await mount({ block: labelled('custom', { '--ADMIN_LABEL': 'red' }) });
    el.style.setProperty('--reaction-admin-label', 'green');
    el.style.setProperty('--reaction-me-label', 'blue');
    // the custom theme fills a label with its colour and writes it in black or white (theme.ts)
    expect(admin(el).backgroundColor, 'block over page (custom)').to.equal(RED);
    expect(admin(el).color, 'black on red').to.equal('lch(0 0 0)');
    expect(me(el).backgroundColor, 'page fills what the block leaves out').to.equal(BLUE);
    expect(me(el).color, 'white on blue').to.equal('lch(100 0 0)');
  });

  it('renders dark theme and Korean', async () => {
    const el = await mount({
      block: block({
        type: 'comment',
        theme: 'dark',
        language: 'ko',
        show_count: true,
        response_count: 3,
      }),
    });
    await until(() => send(el).textContent!.includes('보내기'));
    expect(el.dataset.theme).to.equal('dark');
    expect($(el, '[part=count]').textContent).to.equal('메시지 3개');
    expect(likeOf(item(el, 'm1'))!.textContent!.trim()).to.equal('좋아요 0');
    expect(getComputedStyle($(el, '[part=base]')).backgroundColor).to.equal('rgb(21, 21, 24)');
    await expect(el).to.be.accessible();
  });
});
