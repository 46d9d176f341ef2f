import { html, nothing } from 'lit/html.js';
import { rpc, timezone } from '../../core/api.js';
import { BlockElement, bone, line, meOnly } from '../../core/base.js';
import { state } from '../../core/element.js';
import { baseStyles } from '../../core/theme.js';
import type { BlockView, Option, Question } from '../../core/types.js';
import styles from './ab.styles.js';
import { ab } from '../../core/locales/en.js';

/**
 * @tag reaction-ab
 *
 * @summary An A/B choice: clicking one of two options submits it and shows the counts.
 *
 * @event reaction-submit - The vote was recorded; detail { answers, response }.
 * @event reaction-load - The block view loaded; detail { view }.
 * @event reaction-error - A load or write failed; detail { message, code }.
 *
 * @csspart base - The themed wrapper.
 * @csspart skeleton - The grey placeholder in the block's shape while it loads (also `base`).
 * @csspart title - The question.
 * @csspart options - The two options.
 * @csspart option - One option button.
 * @csspart result - Count and percentage under an option after voting (before, it holds its room unseen).
 * @csspart bar - The track of an option's share, seen after voting.
 * @csspart bar-fill - After voting: the option's share of the votes in the track.
 * @csspart error - The server's message.
 * @csspart held - After a vote held when a burst of new visitors came in: it was received and counts once the owner approves it.
 * @csspart captcha - The check a visitor who went too fast may pass to go on (blocks with the captcha on).
 *
 * @cssproperty --reaction-primary - Chosen option colour.
 * @cssproperty --reaction-tertiary - Option background.
 * @cssproperty --reaction-border - Option edges (default: 55% of the text colour over the background).
 */
export default class ReactionAb extends BlockElement {
  static override texts = ab;
  protected override mine = meOnly;

  static override styles = [baseStyles, styles];
  static override properties = {
    _chosen: state,
    _options: state,
    _busy: state,
    _error: state,
    _held: state,
  };

  declare private _chosen: string;
  declare private _options: Option[];
  declare private _busy: boolean;
  declare private _error: string;
  /** The visitor's vote was held by escalation: received, counted once the owner approves it. */
  declare private _held: boolean;

  constructor() {
    super();
    this._chosen = this._error = '';
    this._options = [];
    this._busy = this._held = false;
  }

  private get question(): Question | undefined {
    const qs = this.view?.questions || [];
    return qs.find((q) => q.type === 'ab') || qs[0];
  }

  protected override viewChanged(): void {
    this.showView(this.view!);
  }

  /** Options and counts of a view; a visitor who voted (me.vote) sees the results at once. */
  private showView(v: BlockView) {
    const q = v.questions?.find((x) => x.type === 'ab') || v.questions?.[0];
    this._options = [...(q?.options || [])].sort((a, b) => a.index - b.index).slice(0, 2);
    this._chosen = this._options.find((o) => v.me?.vote?.includes(o.id))?.id || '';
    this._held = !!this._chosen && v.me?.vote_held === true;
  }

  /** Votes for an option (one choice per visitor; the server enforces it). */
  async vote(option: Option): Promise<void> {
    const q = this.question;
    if (!q || this._busy || this._chosen) return;
    const answers = { [q.id]: option.id };
    this._busy = true;
    this._error = '';
    try {
      const response = this.isDummy
        ? {
            options: this._options.map((o) => ({
              id: o.id,
              response_count: (o.response_count || 0) + (o.id === option.id ? 1 : 0),
            })),
          }
        : await this.write<{ held?: boolean; options?: { id: string; response_count: number }[] }>(
            'submit_response',
            {
              p_block_id: this.view!.block.id,
              p_answers: answers,
              ...(await this.writer()),
              p_timezone: timezone(),
              // no field to hide here: the honeypot is always empty
              p_honeypot: '',
            },
          );
      const counts = new Map((response.options || []).map((o) => [o.id, o.response_count]));
      this._options = this._options.map((o) => ({
        ...o,
        response_count: counts.get(o.id) ?? o.response_count,
      }));
      this._chosen = option.id;
      this._held = 'held' in response && response.held === true;
      this.emit('reaction-submit', { answers, response });
    } catch (e) {
      // Voted meanwhile (another tab): show that vote and the counts instead of the refusal.
      const v =
        (e as Error).message === 'Already voted' &&
        (await rpc<BlockView>(this.project, 'get_block_view', {
          p_block_id: this.view!.block.id,
        }).catch(() => null));
      if (v && v.me?.vote?.length) this.showView(v);
      else this._error = this.fail(e);
    } finally {
      this._busy = false;
    }
  }

  protected override renderSkeleton() {
    // the question (16px/1.5 and 10px under it), then the two options at their voted height
    return html`${line('60%', 24)}
      <div class="sk-row" style="margin-top:2px">${bone(71)}${bone(71)}</div>`;
  }

  protected override renderBlock() {
    const q = this.question;
    if (!q) return html`<p class="muted">${this.t('notValidType')}</p>`;
    const total = this._options.reduce((n, o) => n + (o.response_count || 0), 0);
    const pct = (n: number) => (total ? Math.round((n * 100) / total) : 0);
    // Before a vote the result and the bar are there but hidden, so the options have their voted
    // height from the start and a vote moves nothing (ab.styles.ts centres the label meanwhile).
    return html`<p part="title" id="t" dir="auto">${q.title}</p>
      <div part="options" class=${this._chosen ? 'voted' : ''} role="group" aria-labelledby="t">
        ${this._options.map((o) => {
          // the owner's label reads in its own direction (<bdi>: Arabic right to left); the
          // option, its result and bar stay where the element's ltr layout puts them
          const n = o.response_count || 0;
          return html`<button
            part="option"
            class="btn"
            aria-pressed=${this._chosen === o.id}
            ?disabled=${this._busy}
            @click=${() => this.vote(o)}
          >
            <bdi class="label">${o.value}</bdi>
            <span part="result"
              >${this._chosen ? `${this.t('votes', { count: n })} · ${pct(n)}%` : '\u00a0'}</span
            >
            <span part="bar" aria-hidden="true"
              >${
                this._chosen ? html`<i part="bar-fill" style="width:${pct(n)}%"></i>` : nothing
              }</span
            >
          </button>`;
        })}
      </div>
      <p part="held" class="muted" role="status">${this._held ? this.t('voteHeld') : nothing}</p>
      ${this._error ? html`<p part="error" class="err" role="alert">${this._error}</p>` : nothing}`;
  }
}
