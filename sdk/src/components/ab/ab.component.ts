import { html, nothing } from 'lit';
import { timezone } from '../../core/api.js';
import { BlockElement } from '../../core/base.js';
import { baseStyles } from '../../core/theme.js';
import type { Option, Question } from '../../core/types.js';
import styles from './ab.styles.js';

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
 * @csspart title - The question.
 * @csspart options - The two options.
 * @csspart option - One option button.
 * @csspart result - Count and percentage under an option, after voting.
 * @csspart error - The server's message.
 *
 * @cssproperty --reaction-primary - Chosen option colour.
 * @cssproperty --reaction-tertiary - Option background.
 */
export default class ReactionAb extends BlockElement {
  static override styles = [baseStyles, styles];
  static override properties = {
    ...BlockElement.properties,
    chosen: { state: true },
    options: { state: true },
    busy: { state: true },
    error: { state: true },
  };

  declare chosen: string;
  declare options: Option[];
  declare busy: boolean;
  declare error: string;

  constructor() {
    super();
    this.chosen = this.error = '';
    this.options = [];
    this.busy = false;
  }

  get question(): Question | undefined {
    const qs = this.view?.questions || [];
    return qs.find((q) => q.type === 'ab') || qs[0];
  }

  protected override viewChanged(): void {
    this.options = [...(this.question?.options || [])]
      .sort((a, b) => a.index - b.index)
      .slice(0, 2);
    this.chosen = '';
  }

  /** Votes for an option (one choice per visitor; the server enforces it). */
  async vote(option: Option): Promise<void> {
    const q = this.question;
    if (!q || this.busy || this.chosen) return;
    const answers = { [q.id]: option.id };
    this.busy = true;
    this.error = '';
    try {
      const response = this.isDummy
        ? {
            options: this.options.map((o) => ({
              id: o.id,
              response_count: (o.response_count || 0) + (o.id === option.id ? 1 : 0),
            })),
          }
        : await this.write<{ options?: { id: string; response_count: number }[] }>(
            'submit_response',
            {
              p_block_id: this.view!.block.id,
              p_answers: answers,
              ...this.writer(),
              p_timezone: timezone(),
            },
          );
      const counts = new Map((response.options || []).map((o) => [o.id, o.response_count]));
      this.options = this.options.map((o) => ({
        ...o,
        response_count: counts.get(o.id) ?? o.response_count,
      }));
      this.chosen = option.id;
      this.emit('reaction-submit', { answers, response });
    } catch (e) {
      this.error = this.fail(e);
    } finally {
      this.busy = false;
    }
  }

  protected override renderBlock() {
    const q = this.question;
    if (!q) return html`<p class="muted">${this.t('notValidType')}</p>`;
    const total = this.options.reduce((n, o) => n + (o.response_count || 0), 0);
    return html`<p part="title" id="t">${q.title}</p>
      <div part="options" role="group" aria-labelledby="t">
        ${this.options.map((o) => {
          const n = o.response_count || 0;
          return html`<button
            part="option"
            class="btn"
            aria-pressed=${this.chosen === o.id ? 'true' : 'false'}
            ?disabled=${this.busy}
            @click=${() => this.vote(o)}
          >
            <span>${o.value}</span>
            ${this.chosen ? html`<span part="result">${this.t('votes', { count: n })} · ${total ? Math.round((n * 100) / total) : 0}%</span>` : nothing}
          </button>`;
        })}
      </div>
      ${this.error ? html`<p part="error" class="err" role="alert">${this.error}</p>` : nothing}`;
  }
}
