// The reactive base (core/element.ts) on its own, with a test element of each kind of property.
import { expect } from '@open-wc/testing';
import { html } from 'lit/html.js';
import {
  css,
  ReactiveElement,
  type PropertyDeclaration,
  type PropertyValues,
  type ReactiveController,
} from './element.js';

/** Every update, with what changed and the values it rendered. */
type Seen = { hook: string; changed: Record<string, unknown>; text?: string };

class TestElement extends ReactiveElement {
  static override properties: Record<string, PropertyDeclaration> = {
    name: {},
    blockId: { attribute: 'block-id' },
    open: { type: Boolean },
    view: { attribute: false },
    _count: { state: true },
  };
  static override styles = [
    css`
      :host {
        display: block;
      }
    `,
    css`
      p {
        margin: 3px;
      }
    `,
  ];

  declare name: string;
  declare blockId: string;
  declare open: boolean;
  declare view: object | null;
  declare _count: number;
  seen: Seen[] = [];
  /** Set by the next willUpdate, then by the next updated (once each). */
  inWillUpdate?: () => void;
  inUpdated?: () => void;

  constructor() {
    super();
    this.name = '';
    this.open = false;
    this._count = 0;
  }

  private note(hook: string, changed: PropertyValues) {
    const text = this.renderRoot.querySelector('p')?.textContent ?? undefined;
    this.seen.push({ hook, changed: Object.fromEntries(changed), text });
  }

  protected override willUpdate(changed: PropertyValues): void {
    this.note('willUpdate', changed);
    const hook = this.inWillUpdate;
    this.inWillUpdate = undefined;
    hook?.();
  }

  protected override firstUpdated(changed: PropertyValues): void {
    this.note('firstUpdated', changed);
  }

  protected override updated(changed: PropertyValues): void {
    this.note('updated', changed);
    const hook = this.inUpdated;
    this.inUpdated = undefined;
    hook?.();
  }

  clicks = 0;
  /** A method, not an arrow: `this` is the element only when lit-html calls it with the host. */
  count() {
    this.clicks++;
  }

  protected override render() {
    return html`<p>${this.name}:${this._count}:${this.open}</p>
      <button aria-label="count" @click=${this.count}></button>`;
  }
}
customElements.define('test-reactive', TestElement);

const make = () => document.createElement('test-reactive') as unknown as TestElement;
const mount = async (el = make()) => {
  document.body.append(el);
  await el.updateComplete;
  return el;
};

describe('the reactive base (core/element.ts)', () => {
  afterEach(() => document.querySelectorAll('test-reactive').forEach((e) => e.remove()));

  it('waits for the page: the first update comes after the element is connected', async () => {
    const el = make();
    el.name = 'a';
    await new Promise((r) => setTimeout(r, 10));
    expect(el.seen).to.deep.equal([]);
    expect(el.hasUpdated).to.equal(false);
    document.body.append(el);
    expect(await el.updateComplete).to.equal(true);
    expect(el.hasUpdated).to.equal(true);
    expect(el.seen.map((s) => s.hook)).to.deep.equal(['willUpdate', 'firstUpdated', 'updated']);
    // the first update has every property the constructor or the page set, each as it was before
    expect(el.seen[0]!.changed).to.deep.equal({
      name: undefined,
      open: undefined,
      _count: undefined,
    });
    expect(el.shadowRoot!.querySelector('p')!.textContent).to.equal('a:0:false');
    expect(el.renderRoot).to.equal(el.shadowRoot);
  });

  it('gives a class its accessors once finalized, defined or not (a React wrapper on a server)', () => {
    class Undefined extends ReactiveElement {
      static override properties = { blockId: { attribute: 'block-id' }, _x: { state: true } };
    }
    expect('blockId' in Undefined.prototype).to.equal(false);
    expect([...Undefined.finalize()]).to.deep.equal([['block-id', ['blockId', false]]]);
    expect(['blockId' in Undefined.prototype, '_x' in Undefined.prototype]).to.deep.equal([
      true,
      true,
    ]);
    expect(Undefined.finalize()).to.equal(Undefined.finalize());
  });

  it('makes one update of every change in a task, with the values before it', async () => {
    const el = await mount();
    el.seen = [];
    el.name = 'x';
    el.name = 'y';
    el._count = 2;
    el.open = false; // the same value: no change
    expect(el.seen).to.deep.equal([]);
    await el.updateComplete;
    expect(el.seen).to.deep.equal([
      { hook: 'willUpdate', changed: { name: '', _count: 0 }, text: ':0:false' },
      { hook: 'updated', changed: { name: '', _count: 0 }, text: 'y:2:false' },
    ]);
    // nothing changed, nothing asked: no update
    el.seen = [];
    el.name = 'y';
    await el.updateComplete;
    expect(el.seen).to.deep.equal([]);
  });

  it('reads its attributes: renamed, boolean, plain; none for state or attribute: false', async () => {
    expect(TestElement.observedAttributes).to.deep.equal(['name', 'block-id', 'open']);
    const el = make();
    el.setAttribute('name', 'n');
    el.setAttribute('block-id', 'b1');
    el.setAttribute('open', '');
    await mount(el);
    expect([el.name, el.blockId, el.open]).to.deep.equal(['n', 'b1', true]);
    el.removeAttribute('open');
    el.removeAttribute('name');
    expect([el.name, el.open]).to.deep.equal([null, false]);
    // properties do not write attributes back
    el.blockId = 'b2';
    expect(el.getAttribute('block-id')).to.equal('b1');
    el.setAttribute('view', 'x');
    el.setAttribute('_count', '3');
    expect([el.view, el._count]).to.deep.equal([undefined, 0]);
  });

  it("gives a subclass its parent's properties beside its own, as Lit did", async () => {
    class Sub extends TestElement {
      static override properties = { extra: {}, open: { attribute: 'is-open', type: Boolean } };
      declare extra: string;
    }
    customElements.define('test-reactive-sub', Sub);
    expect(Sub.observedAttributes).to.deep.equal(['name', 'block-id', 'is-open', 'extra']);
    const el = document.createElement('test-reactive-sub') as Sub;
    el.setAttribute('block-id', 'b1');
    el.setAttribute('extra', 'x');
    el.setAttribute('is-open', '');
    document.body.append(el);
    await el.updateComplete;
    expect([el.blockId, el.extra, el.open]).to.deep.equal(['b1', 'x', true]);
    el._count = 2;
    await el.updateComplete;
    expect(el.renderRoot.querySelector('p')!.textContent).to.equal(':2:true');
    el.remove();
  });

  it('keeps what willUpdate changes in the same update, and updates again for what updated changes', async () => {
    const el = await mount();
    el.seen = [];
    el.inWillUpdate = () => (el._count = 5);
    el.name = 'w';
    await el.updateComplete;
    expect(el.seen.map((s) => s.hook)).to.deep.equal(['willUpdate', 'updated']);
    expect(el.seen[1]).to.deep.equal({
      hook: 'updated',
      changed: { name: '', _count: 0 },
      text: 'w:5:false',
    });
    el.seen = [];
    el.inUpdated = () => (el._count = 6);
    el.name = 'u';
    // a second update is pending when the first one completes
    expect(await el.updateComplete).to.equal(false);
    expect(await el.updateComplete).to.equal(true);
    expect(el.seen.map((s) => [s.hook, s.text])).to.deep.equal([
      ['willUpdate', 'w:5:false'],
      ['updated', 'u:5:false'],
      ['willUpdate', 'u:5:false'],
      ['updated', 'u:6:false'],
    ]);
    expect(el.seen[2]!.changed).to.deep.equal({ _count: 5 });
  });

  it('renders again on requestUpdate() with nothing changed', async () => {
    const el = await mount();
    el.seen = [];
    el.requestUpdate();
    await el.updateComplete;
    expect(el.seen.map((s) => [s.hook, s.changed])).to.deep.equal([
      ['willUpdate', {}],
      ['updated', {}],
    ]);
  });

  it('keeps a property set before the element was defined (an app that set it first)', async () => {
    const el = document.createElement('test-reactive-late') as unknown as TestElement;
    (el as unknown as Record<string, unknown>).name = 'early';
    (el as unknown as Record<string, unknown>).view = { v: 1 };
    document.body.append(el);
    customElements.define('test-reactive-late', class extends TestElement {});
    await el.updateComplete;
    expect(Object.hasOwn(el, 'name')).to.equal(false);
    expect(el.name).to.equal('early');
    expect(el.view).to.deep.equal({ v: 1 });
    expect(el.shadowRoot!.querySelector('p')!.textContent).to.equal('early:0:false');
    el.remove();
  });

  it('adopts its styles as constructed sheets, one per text for every element', async () => {
    const a = await mount();
    const b = await mount();
    const sheets = a.shadowRoot!.adoptedStyleSheets;
    expect(sheets.length).to.equal(2);
    expect(b.shadowRoot!.adoptedStyleSheets).to.deep.equal(sheets);
    expect(sheets[0]).to.equal(b.shadowRoot!.adoptedStyleSheets[0]);
    expect(getComputedStyle(a.shadowRoot!.querySelector('p')!).margin).to.equal('3px');
  });

  it('calls template listeners on the element', async () => {
    const el = await mount();
    el.shadowRoot!.querySelector('button')!.click();
    expect(el.clicks).to.equal(1);
  });

  it('tells its controllers when it comes and goes', async () => {
    const calls: string[] = [];
    const controller: ReactiveController = {
      hostConnected: () => calls.push('connected'),
      hostDisconnected: () => calls.push('disconnected'),
    };
    const el = make();
    el.addController(controller);
    expect(calls).to.deep.equal([]);
    await mount(el);
    el.remove();
    document.body.append(el);
    // one added while connected hears at once
    el.addController({ hostConnected: () => calls.push('late') });
    expect(calls).to.deep.equal(['connected', 'disconnected', 'connected', 'late']);
  });

  it('makes one shadow root, however often it is moved', async () => {
    const el = await mount();
    const root = el.shadowRoot;
    el.remove();
    document.body.append(el);
    el.name = 'moved';
    await el.updateComplete;
    expect(el.shadowRoot).to.equal(root);
    expect(root!.querySelectorAll('p').length).to.equal(1);
  });

  it('settles updateComplete with an error when an update throws, and updates again after', async () => {
    const el = await mount();
    el.inWillUpdate = () => {
      throw new Error('boom');
    };
    el.name = 'bad';
    let error: unknown;
    await el.updateComplete.catch((e: unknown) => (error = e));
    expect((error as Error).message).to.equal('boom');
    el.name = 'good';
    expect(await el.updateComplete).to.equal(true);
    expect(el.shadowRoot!.querySelector('p')!.textContent).to.equal('good:0:false');
  });
});
