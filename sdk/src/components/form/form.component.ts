import { html, nothing, type TemplateResult } from 'lit/html.js';
import { timezone } from '../../core/api.js';
import { honeypot } from '../../core/trust.js';
import { BlockElement, bone, line } from '../../core/base.js';
import { state } from '../../core/element.js';
import { loadChunk } from '../../core/chunk.js';
import { baseStyles } from '../../core/theme.js';
import fieldStyles from '../../core/fields.styles.js';
import { IMAGE_PLACEHOLDER, fallBackTo } from '../../core/placeholder.js';
import { safeUrl } from '../../core/text.js';
import type { Answers, BlockView, Ending, Question } from '../../core/types.js';
import { checkAnswer } from '../../core/validate.js';
import styles from './form.styles.js';
import { fields, form } from '../../core/locales/en.js';

/** Spec: checks run after a 500 ms pause (200 ms for long text); long text grows to 360 px. */
export const DEBOUNCE_MS = 500;
/**
 * Which ending a response reaches (endings.ts): a chunk loaded with the writer's code, on the
 * visitor's first interaction with the form, or by the submit.
 */
const loadEndings = loadChunk(() => import('./endings.js'));
/**
 * Owner-written HTML's sanitiser (rich.ts): a chunk loaded before a view with a description
 * question shows, or with the writer's code (an ending's text).
 */
const loadRich = loadChunk(() => import('./rich.js').then((m) => (richCode = m)));
let richCode: typeof import('./rich.js') | undefined;
export const LONG_TEXT_DEBOUNCE_MS = 200;
export const LONG_TEXT_MAX_HEIGHT = 360;

/**
 * @tag reaction-form
 *
 * @summary A form: poll, A/B, short and long text, number, phone, mail, description and image
 * questions with the spec's checks, then the ending whose conditions hold.
 *
 * @event reaction-submit - The response was recorded; detail { answers, response }.
 * @event reaction-load - The block view loaded; detail { view }.
 * @event reaction-error - A load or write failed; detail { message, code }.
 *
 * @csspart base - The themed wrapper.
 * @csspart skeleton - The grey placeholder in the block's shape while it loads (also `base`).
 * @csspart form - The form.
 * @csspart question - One question.
 * @csspart question-title - A question's title.
 * @csspart input - Text inputs.
 * @csspart choice - A poll or A/B option.
 * @csspart description - Description content.
 * @csspart image - Image question.
 * @csspart field-error - 'Required' or a pattern message under a question.
 * @csspart invalid - 'Please check response' note.
 * @csspart submit - Submit button.
 * @csspart error - The server's message after a failed submit.
 * @csspart ending - The ending view.
 * @csspart ending-title - The ending's title.
 * @csspart open-link - The ending's link button.
 * @csspart resubmit - Submit again button.
 * @csspart held - On the ending: the response was received and waits for the owner's approval (held when a burst of new visitors came in).
 * @csspart captcha - The check a visitor who went too fast may pass to go on (blocks with the captcha on).
 *
 * @cssproperty --reaction-primary - Buttons and focus.
 * @cssproperty --reaction-secondary - Quiet fills.
 * @cssproperty --reaction-border - Field and choice edges (default: 55% of the text colour over the background).
 * @cssproperty --reaction-muted - Placeholders and hints.
 * @cssproperty --reaction-error - Error colour.
 * @cssproperty --reaction-form-height - The height the form holds while it loads (default 306px:
 * three short questions; the CDN loader reserves it too) and, when set, at least after. Set it to
 * your form's height on your page so nothing under the form moves when it loads.
 */
export default class ReactionForm extends BlockElement {
  static override texts = { ...fields, ...form };
  static override styles = [baseStyles, fieldStyles, styles];
  static override properties = {
    _answers: state,
    _errors: state,
    _invalid: state,
    _submitting: state,
    _error: state,
    _ending: state,
    _held: state,
  };

  declare private _answers: Answers;
  declare private _errors: Record<string, string>;
  declare private _invalid: boolean;
  declare private _submitting: boolean;
  declare private _error: string;
  /** The ending shown after a valid submit (mode "ending"), or null while answering. */
  declare private _ending: Ending | null;
  /** The last response was held by escalation: received, counted once the owner approves it. */
  declare private _held: boolean;
  private timers: Record<string, ReturnType<typeof setTimeout>> = {};
  /** The hidden honeypot field's value: people never fill it. */
  private hp = '';

  constructor() {
    super();
    this._answers = {};
    this._errors = {};
    this._invalid = this._submitting = this._held = false;
    this._error = '';
    this._ending = null;
  }

  private get questions(): Question[] {
    return [...(this.view?.questions || [])].sort((a, b) => a.index - b.index);
  }

  protected override viewChanged(): void {
    this.reset();
    // The dashboard's editor preview shows one ending (block mode "ending", ending_mode its
    // index as text); only in dummy mode, so a published block always starts with the form.
    const b = this.view?.block;
    if (this.isDummy && b?.mode === 'ending')
      this._ending =
        (this.view?.endings || []).find((e) => String(e.index) === b.ending_mode) || null;
  }

  /** A view with a description question shows once the sanitiser is here (rich.ts). */
  protected override prepare(view: BlockView): unknown {
    return view.questions?.some((q) => q.type === 'description') && loadRich();
  }

  /**
   * The sanitiser once here (rich.ts); until then (a view set from outside, the dashboard's
   * preview) it is loaded and the form renders again when it is.
   */
  private get rich() {
    if (!richCode)
      loadRich().then(
        () => this.requestUpdate(),
        () => {},
      );
    return richCode;
  }

  /** Owner-written HTML at one place of the form as nodes (rich.ts); nothing until it is here. */
  private richAt(at: string, input: string | null | undefined): Node[] | typeof nothing {
    return this.rich?.richAt(this, at, input) ?? nothing;
  }

  /** Clears answers and returns to answering. */
  reset(): void {
    this._answers = {};
    this._errors = {};
    this._invalid = false;
    this._error = '';
    this._ending = null;
    this._held = false;
  }

  private message(q: Question): string {
    const r = checkAnswer(q, this._answers[q.id]);
    return r ? this.t(r[0], r[1]) : '';
  }

  private setAnswer(q: Question, value: string | string[], delay = 0) {
    this._answers = { ...this._answers, [q.id]: value };
    this._invalid = false;
    clearTimeout(this.timers[q.id]);
    const run = () => (this._errors = { ...this._errors, [q.id]: this.message(q) });
    if (delay) this.timers[q.id] = setTimeout(run, delay);
    else run();
  }

  /** Validates every question now; true when all pass. */
  validate(): boolean {
    const errors: Record<string, string> = {};
    for (const q of this.questions) errors[q.id] = this.message(q);
    this._errors = errors;
    return !Object.values(errors).some(Boolean);
  }

  /** Checks every answer and sends the response (what the Submit button does). */
  async submit(e?: Event): Promise<void> {
    e?.preventDefault();
    if (this._submitting) return;
    Object.values(this.timers).forEach(clearTimeout);
    if (!this.validate()) {
      this._invalid = true;
      // the first invalid question: a text field, or a choice group's first option
      return this.focusOn('[aria-invalid=true]');
    }
    const answers: Answers = {};
    for (const [k, v] of Object.entries(this._answers))
      if (Array.isArray(v) ? v.length : v.trim()) answers[k] = Array.isArray(v) ? v : v.trim();
    this._submitting = true;
    this._error = '';
    try {
      // here before anything is sent: a response is never recorded without its ending to show
      const [{ pickEnding }] = await Promise.all([loadEndings(), loadRich()]);
      const response = this.isDummy
        ? { id: 'dummy' }
        : await this.write<unknown>('submit_response', {
            p_block_id: this.view!.block.id,
            p_answers: answers,
            ...(await this.writer()),
            p_timezone: timezone(),
            p_honeypot: this.hp,
          });
      const ending = pickEnding(this.view!.endings || [], this.questions, answers);
      const url = safeUrl(ending.open_url, true);
      if (url && ending.open_link_type === 'submit') window.open(url, '_blank', 'noopener');
      this._held = (response as { held?: boolean } | null)?.held === true;
      this._ending = ending;
      this.emit('reaction-submit', { answers, response });
    } catch (err) {
      this._error = this.fail(err);
    } finally {
      this._submitting = false;
    }
    // the ending (role=status) replaced the form and the button that had focus
    // (its title, or itself when it has none: the one with tabindex -1)
    if (this._ending) await this.focusOn('[part^=ending][tabindex]');
  }

  /** Submit again: answering from the start, at the first field. */
  private async again(): Promise<void> {
    this.reset();
    await this.focusOn('[part~=question] :is(input,textarea),[part=submit]');
  }

  /**
   * Moves focus (after the render) to the first element `selector` matches, or to the first
   * option in it when it is a choice group: where a keyboard or screen-reader user goes on.
   */
  private async focusOn(selector: string): Promise<void> {
    await this.updateComplete;
    const el = this.renderRoot.querySelector(selector);
    ((el?.querySelector('input,textarea') || el) as HTMLElement | null)?.focus();
  }

  protected override startWriting(): void {
    super.startWriting();
    loadEndings().catch(() => {});
    loadRich().catch(() => {});
  }

  private grow(e: Event) {
    const t = e.target as HTMLTextAreaElement;
    t.style.height = 'auto';
    t.style.height = Math.min(t.scrollHeight + 2, LONG_TEXT_MAX_HEIGHT) + 'px';
  }

  private renderQuestion(q: Question): TemplateResult {
    const err = this._errors[q.id] || '';
    const id = 'q-' + q.id;
    const described = err ? id + '-err' : nothing;
    const title = html`${q.title}${q.required ? html`<span class="req" aria-hidden="true"> *</span>` : nothing}`;
    const errEl = err ? html`<p part="field-error" class="err" id="${id}-err">${err}</p>` : nothing;
    const value = this._answers[q.id];
    if (q.type === 'description') {
      return html`<div part="question">
        <p part="question-title" dir="auto">${q.title}</p>
        <div part="description">${this.richAt(q.id, q.content)}</div>
      </div>`;
    }
    if (q.type === 'image')
      return html`<div part="question">
        ${q.title ? html`<p part="question-title" dir="auto">${q.title}</p>` : nothing}
        <img
          part="image"
          src=${safeUrl(q.image_src) || IMAGE_PLACEHOLDER}
          alt=${q.title || ''}
          @error=${fallBackTo(IMAGE_PLACEHOLDER)}
        />
      </div>`;
    if (q.type === 'poll' || q.type === 'ab') {
      const multi = q.type === 'poll' && !!q.allow_multi_select;
      const chosen = Array.isArray(value) ? value : value ? [value] : [];
      const opts = [...(q.options || [])].sort((a, b) => a.index - b.index);
      return html`<fieldset
        part="question"
        role=${multi ? 'group' : 'radiogroup'}
        aria-describedby=${described}
        aria-invalid=${!!err}
        aria-required=${q.required && !multi ? 'true' : nothing}
      >
        <legend dir="auto">
          ${title}
          ${
            // a checkbox group may not say aria-required (role=group): its legend says it
            q.required && multi ? html`<span class="sr">${this.t('required')}</span>` : nothing
          }
        </legend>
        ${opts.map(
          // the choice's text reads in its own direction (<bdi>: Arabic right to left) while its
          // radio stays at the label's ltr start (dir="auto" on the label would move it)
          (o) =>
            html`<label part="choice">
              <input
                type=${multi ? 'checkbox' : 'radio'}
                name=${id}
                .checked=${chosen.includes(o.id)}
                @change=${(e: Event) => {
                  const on = (e.target as HTMLInputElement).checked;
                  this.setAnswer(
                    q,
                    multi ? (on ? [...chosen, o.id] : chosen.filter((c) => c !== o.id)) : [o.id],
                  );
                }}
              />
              <bdi>${o.value}</bdi>
            </label>`,
        )}
        ${errEl}
      </fieldset>`;
    }
    const long = q.type === 'long_text';
    const delay = long ? LONG_TEXT_DEBOUNCE_MS : DEBOUNCE_MS;
    const onInput = (e: Event) => {
      if (long) this.grow(e);
      this.setAnswer(q, (e.target as HTMLInputElement).value, delay);
    };
    const v = typeof value === 'string' ? value : '';
    const type = q.type === 'mail' ? 'email' : q.type === 'phone' ? 'tel' : 'text';
    return html`<div part="question">
      <label part="question-title" for=${id} dir="auto">${title}</label>
      ${
        long
          ? html`<textarea
              part="input"
              class="input"
              dir="auto"
              id=${id}
              rows="3"
              placeholder=${q.placeholder || ''}
              .value=${v}
              aria-invalid=${!!err}
              aria-required=${!!q.required}
              aria-describedby=${described}
              @input=${onInput}
            ></textarea>`
          : html`<input
              part="input"
              class="input"
              dir="auto"
              id=${id}
              type=${type}
              inputmode=${q.type === 'number' ? 'numeric' : nothing}
              autocomplete=${q.type === 'mail' ? 'email' : q.type === 'phone' ? 'tel' : 'off'}
              placeholder=${q.placeholder || ''}
              .value=${v}
              aria-invalid=${!!err}
              aria-required=${!!q.required}
              aria-describedby=${described}
              @input=${onInput}
            />`
      }
      ${errEl}
    </div>`;
  }

  private renderEnding(e: Ending) {
    const r = this.rich;
    // shown after a submit, which waited for the sanitiser; in the dashboard's preview, once here
    if (!r) return nothing;
    const url = safeUrl(e.open_url, true);
    const closing = r.sanitize(e.closing_text);
    const text = this.richAt('ending:' + e.id, e.closing_text);
    // The default ending's text is "Thank you" already: the title falls back to it only when the
    // ending has no closing text, so it is never said twice.
    const title = e.title || (closing.replace(/<[^>]*>/g, '').trim() ? '' : this.t('thankYou'));
    return html`<div part="ending" role="status" tabindex=${title ? nothing : -1}>
      ${title ? html`<h2 part="ending-title" tabindex="-1" dir="auto">${title}</h2>` : nothing}
      ${closing ? html`<div part="description">${text}</div>` : nothing}
      ${this._held ? html`<p part="held" class="muted">${this.t('responseHeld')}</p>` : nothing}
      ${
        url && e.open_link_type !== 'submit'
          ? html`<a
              part="open-link"
              class="btn"
              href=${url}
              target="_blank"
              rel="noopener noreferrer"
              >${e.open_url_text || this.t('openLink')}</a
            >`
          : nothing
      }
      ${e.block_submit_another ? nothing : html`<button part="resubmit" class="btn ghost" @click=${this.again}>${e.resubmit_text || this.t('submitAgain')}</button>`}
    </div>`;
  }

  protected override renderSkeleton() {
    // short-text questions (title, 6px, input) 16px apart, as many as the height held shows (three
    // by default, --reaction-form-height for a longer form; form.styles.ts), then Submit
    const question = html`<div class="sk" style="gap:6px">${line('40%')}${bone(39)}</div>`;
    return html`<div class="sk sk-questions">${Array.from({ length: 12 }, () => question)}</div>
      ${bone(36, '96px')}`;
  }

  protected override renderBlock() {
    if (this._ending) return this.renderEnding(this._ending);
    const b = this.view!.block;
    return html`<form
      part="form"
      novalidate
      @submit=${this.submit}
      aria-label=${b.name || this.t('submit')}
    >
      ${this.questions.map((q) => this.renderQuestion(q))} ${honeypot((v) => (this.hp = v))}
      ${this._invalid ? html`<p part="invalid" class="err" role="alert">${this.t('checkResponse')}</p>` : nothing}
      ${this._error ? html`<p part="error" class="err" role="alert">${this._error}</p>` : nothing}
      <div>
        <button
          part="submit"
          class="btn"
          type="submit"
          ?disabled=${this._submitting}
          aria-busy=${this._submitting}
        >
          ${this._submitting ? html`<span class="spin" aria-hidden="true"></span>` : nothing}${b.submit_button_text || this.t('submit')}
        </button>
      </div>
    </form>`;
  }
}
