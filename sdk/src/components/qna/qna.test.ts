// <reaction-qna>: the Q&A block (the comment element with a subject, the owner and resolved questions).
import { expect } from '@open-wc/testing';
import '../comment/comment.js';
import './qna.js';
import type ReactionComment from '../comment/comment.component.js';
import { $, block, mockApi, mockApiPerTest, type, until } from '../../test/mock-api.js';
import { mountReady } from '../../test/mount.js';
import { msg, signIn } from '../../test/comment.js';

describe('reaction-qna', () => {
  let api: ReturnType<typeof mockApi>;
  mockApiPerTest();

  async function mount(photo: string | null = null) {
    api = mockApi({
      get_block_view: () => ({
        block: block({
          type: 'qna',
          owner_photo_url: photo,
          owner_name: 'Jane',
          qna_subject: 'Ask me ($responseCount$)',
          response_count: 2,
        }),
        messages: [msg('q1'), msg('q2', { resolved: true })],
        me: {},
      }),
      set_message_resolved: (b) =>
        msg(b.p_message_id as string, { resolved: b.p_resolved as boolean }),
    });
    return mountReady<ReactionComment>('reaction-qna');
  }

  it('is accessible', async () => {
    await expect(await mount()).to.be.accessible();
  });

  it("counts the visitor's question in the subject's $responseCount$", async () => {
    const el = await mount();
    api.restore();
    api = mockApi({
      post_message: (b) =>
        msg('q3', { content: b.p_content as string, created_at: new Date().toISOString() }),
    });
    type($<HTMLTextAreaElement>(el, '[part=composer] textarea'), 'Why?');
    await el.updateComplete;
    $(el, '[part=composer] [part=submit]').click();
    await until(() => $(el, '#m-q3'));
    await el.updateComplete;
    expect($(el, '[part=subject]').textContent).to.equal('Ask me (3)');
  });

  it("shows the placeholder image when the owner's photo does not load", async () => {
    const el = await mount(location.origin + '/no-such-owner.png');
    const img = $<HTMLImageElement>(el, '[part=header] img');
    await until(() => img.src.startsWith('data:image/svg+xml'));
    await until(() => img.complete && img.naturalWidth > 0);
  });

  it('shows the header, resolved label and lets only the owner resolve', async () => {
    let el = await mount();
    expect($(el, '[part=subject]').textContent).to.equal('Ask me (2)');
    expect($(el, '[part=owner]').textContent).to.equal('Jane');
    expect($(el, '[part=composer] textarea').getAttribute('placeholder')).to.equal(
      'Ask a question',
    );
    expect($(el, '#m-q2').textContent).to.contain('Resolved');
    expect($(el, '#m-q1').textContent).not.to.contain('Mark resolved');
    api.restore();
    signIn('owner-1');
    el = await mount();
    const resolve = [...$(el, '#m-q1').querySelectorAll('button')].find((b) =>
      b.textContent!.includes('Mark resolved'),
    )!;
    resolve.click();
    await until(() => el['_messages'][0]!.resolved);
    expect(api.rpcCalls().find((c) => c.name === 'set_message_resolved')!.body).to.deep.equal({
      p_message_id: 'q1',
      p_resolved: true,
    });
  });
});
