// The elements' reactive base: what the SDK used of Lit's LitElement and ReactiveElement, written
// for it alone (issue 21: those two were 2.67 KB of the 10.70 KB a like block loaded before its
// first data). Templates stay lit-html's (`html`, `nothing`, directives); this gives an element
// reactive properties (with their attributes, or private state), a batched update that renders
// the template into an open shadow root, the update hooks, constructed style sheets, and the
// connect/disconnect half of Lit's reactive controllers, in 0.86 KB (npm run size:parts). Tested
// by core/element.test.ts.
import { render } from 'lit/html.js';

/**
 * A reactive property: its attribute (the lower-case name unless given; `false` for none), read
 * as a boolean (present or not) when `type` is Boolean; `state` is private state, with no
 * attribute.
 */
export interface PropertyDeclaration {
  attribute?: string | boolean;
  type?: BooleanConstructor;
  state?: boolean;
}

/**
 * Private reactive state, with no attribute: `{ _open: state }`. A subclass lists only its own
 * properties (the base merges its parents').
 */
export const state: PropertyDeclaration = { state: true };

/** What changed since the last update: each property's value before it. */
export type PropertyValues = Map<PropertyKey, unknown>;

/** A helper that follows its element on and off the page (Lit's ReactiveController, in part). */
export interface ReactiveController {
  hostConnected?(): void;
  hostDisconnected?(): void;
}

/** What a controller may ask of its element. */
export interface ReactiveControllerHost {
  addController(controller: ReactiveController): void;
  requestUpdate(): void;
  readonly updateComplete: Promise<boolean>;
}

/**
 * A style sheet's text. The tag tells the build's template minifier that this is CSS; there is
 * nothing to interpolate (a theme's values are custom properties).
 */
export const css = (text: TemplateStringsArray): string => text[0]!;

/** One constructed sheet per text, shared by every element (and every type) that uses it. */
const sheets = new Map<string, CSSStyleSheet>();
const sheetOf = (text: string): CSSStyleSheet => {
  let sheet = sheets.get(text);
  if (!sheet) {
    sheets.set(text, (sheet = new CSSStyleSheet()));
    sheet.replaceSync(text);
  }
  return sheet;
};

// Imported on a server (server-side rendering) there is no HTMLElement: the elements then extend
// a stand-in and are never defined.
const HTMLElementOrStandIn = (globalThis.HTMLElement ?? class {}) as typeof HTMLElement;

/** A class's reactive properties with those of the classes it extends (its own win). */
export const propertiesOf = (c: unknown): Record<string, PropertyDeclaration> =>
  c === HTMLElementOrStandIn || !c
    ? {}
    : { ...propertiesOf(Object.getPrototypeOf(c)), ...(c as typeof ReactiveElement).properties };

/** Each class's attributes: the property each sets, and whether it is a boolean. */
const attributesOf = new WeakMap<object, Map<string, [string, boolean]>>();

export class ReactiveElement extends HTMLElementOrStandIn implements ReactiveControllerHost {
  /** The reactive properties; a subclass inherits its parent's (its own add to them, or redeclare). */
  static properties: Record<string, PropertyDeclaration> = {};
  /** Its style sheets' texts (css``), in order. */
  static styles: string[] = [];
  /** Its reactive properties with its parents' (propertiesOf), set once by finalize. */
  declare private static all: Record<string, PropertyDeclaration>;

  /** The attributes to watch, asked by customElements.define. */
  static get observedAttributes(): string[] {
    return [...this.finalize().keys()];
  }

  /**
   * Once per class: makes each reactive property an accessor on the prototype (also on a server,
   * where a React wrapper asks which props are properties), and answers the property of each
   * attribute.
   */
  static finalize(): Map<string, [string, boolean]> {
    let byAttribute = attributesOf.get(this);
    if (byAttribute) return byAttribute;
    attributesOf.set(this, (byAttribute = new Map()));
    for (const [name, d] of Object.entries((this.all = propertiesOf(this)))) {
      Object.defineProperty(this.prototype, name, {
        get(this: ReactiveElement) {
          return this.values.get(name);
        },
        set(this: ReactiveElement, value: unknown) {
          const old = this.values.get(name);
          // Lit's notEqual: NaN to NaN is no change
          if (old !== value && (old === old || value === value)) {
            this.values.set(name, value);
            this.requestUpdate(name, old);
          }
        },
        configurable: true,
        enumerable: true,
      });
      const attribute = typeof d.attribute === 'string' ? d.attribute : name.toLowerCase();
      if (!d.state && d.attribute !== false) byAttribute.set(attribute, [name, d.type === Boolean]);
    }
    return byAttribute;
  }

  /** The open shadow root the template renders into, made on the first connection. */
  renderRoot!: ShadowRoot;
  /** True once the first update rendered. */
  hasUpdated = false;

  private values = new Map<string, unknown>();
  private changed: PropertyValues = new Map();
  private pending = false;
  private controllers: ReactiveController[] = [];
  /** Properties set on the element before its class was defined: applied at the first update. */
  private early = new Map<string, unknown>();
  private enable!: () => void;
  private done: Promise<unknown> = new Promise<void>((resolve) => (this.enable = resolve));

  constructor() {
    super();
    for (const name in (this.constructor as typeof ReactiveElement).all)
      if (Object.hasOwn(this, name)) {
        this.early.set(name, this[name as keyof this]);
        delete this[name as keyof this];
      }
    // the first update waits for the first connection
    this.requestUpdate();
  }

  /**
   * Asks for an update (once per task: every change until then comes in the same one); with a
   * name, records that property's value before the change.
   */
  requestUpdate(name?: string, old?: unknown): void {
    if (name !== undefined && !this.changed.has(name)) this.changed.set(name, old);
    if (this.pending) return;
    this.pending = true;
    const previous = this.done;
    this.done = previous
      .catch(() => {})
      .then(() => {
        this.performUpdate();
        return !this.pending;
      });
  }

  /** Settles once the update asked for (if any) has rendered: true when no other is pending. */
  get updateComplete(): Promise<boolean> {
    return this.done as Promise<boolean>;
  }

  addController(controller: ReactiveController): void {
    this.controllers.push(controller);
    if (this.renderRoot && this.isConnected) controller.hostConnected?.();
  }

  connectedCallback(): void {
    if (!this.renderRoot) {
      const root = this.attachShadow({ mode: 'open' });
      root.adoptedStyleSheets = (this.constructor as typeof ReactiveElement).styles.map(sheetOf);
      this.renderRoot = root;
      this.enable();
    }
    for (const c of this.controllers) c.hostConnected?.();
  }

  disconnectedCallback(): void {
    for (const c of this.controllers) c.hostDisconnected?.();
  }

  attributeChangedCallback(attribute: string, _old: string | null, value: string | null): void {
    const [name, bool] = (this.constructor as typeof ReactiveElement).finalize().get(attribute)!;
    (this as Record<string, unknown>)[name] = bool ? value !== null : value;
  }

  private performUpdate(): void {
    for (const [name, value] of this.early) (this as Record<string, unknown>)[name] = value;
    this.early.clear();
    const changed = this.changed;
    let template: unknown;
    try {
      this.willUpdate(changed);
      template = this.render();
    } finally {
      // what changes from here on (in updated(), or later) is the next update's
      this.changed = new Map();
      this.pending = false;
    }
    render(template, this.renderRoot, { host: this });
    if (!this.hasUpdated) {
      this.hasUpdated = true;
      this.firstUpdated(changed);
    }
    this.updated(changed);
  }

  /** Before rendering: derive state from what changed (changes here join this update). */
  protected willUpdate(_changed: PropertyValues): void {}

  /** The template (lit-html) of the shadow root. */
  protected render(): unknown {
    return undefined;
  }

  /** After the first render. */
  protected firstUpdated(_changed: PropertyValues): void {}

  /** After every render (changes here ask for another update). */
  protected updated(_changed: PropertyValues): void {}
}
