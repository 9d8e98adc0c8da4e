// The chat: a launcher button and a panel in an open shadow root. The conversation (its id and
// visitor token) is kept in the site's localStorage, so it continues across page loads; the
// panel shows the visitor's messages, the agent's replies (Markdown, rendered safely), thumbs on
// answers, the hand-over and then the team's replies as they arrive on the event stream.
import { type AnswerPartial, type Conversation, type ConversationState, VisitorApi, VisitorApiError, type VisitorEvent } from './api';
import { accentColors, h, icon, ICONS, renderMarkdown } from './dom';
import { parseMarkdown } from './markdown';
import { type Strings, stringsFor } from './strings';
import { CSS } from './styles';

export interface WidgetConfig {
  base: string;
  key: string;
  title: string | null;
  color: string | null;
  locale: string;
  userAttributes: Record<string, unknown> | null;
}

/** The agent's answer while a model writes it, shown until the stored reply replaces it. */
interface Draft {
  element: HTMLElement;
  body: HTMLElement;
  text: string;
}

interface Pending {
  content: string;
  element: HTMLElement;
  id: string | null;
}

const storageKey = (key: string) => `parley-widget:${key}`;

function load(key: string): Conversation | null {
  try {
    const saved = JSON.parse(localStorage.getItem(storageKey(key)) ?? 'null') as Partial<Conversation> | null;
    return saved && typeof saved.conversationId === 'string' && typeof saved.visitorToken === 'string' ? { conversationId: saved.conversationId, visitorToken: saved.visitorToken } : null;
  } catch {
    return null;
  }
}

function save(key: string, conversation: Conversation | null): void {
  try {
    if (conversation) localStorage.setItem(storageKey(key), JSON.stringify(conversation));
    else localStorage.removeItem(storageKey(key));
  } catch {
    // Storage refused (a private window's quota, a sandbox): the conversation lasts this page.
  }
}

/** The conversation the token proves is gone or not this key's: start a new one. */
const lostConversation = (error: unknown) => error instanceof VisitorApiError && (error.status === 401 || error.status === 403 || error.status === 404);

export class ChatWidget {
  private readonly api: VisitorApi;
  private readonly t: Strings;
  private conversation: Conversation | null;
  private stream: EventSource | null = null;
  private readonly shown = new Map<string, HTMLElement>();
  private readonly pending: Pending[] = [];
  /** Answers being written, by the id of the visitor's message they answer. */
  private readonly drafts = new Map<string, Draft>();
  private inFlight = 0;
  private humanTakeover = false;
  private disabled = false;

  private readonly host: HTMLElement;
  private readonly root: ShadowRoot;
  private readonly launcher: HTMLButtonElement;
  private readonly badge: HTMLElement;
  private readonly panel: HTMLElement;
  private readonly log: HTMLElement;
  private readonly notice: HTMLElement;
  private readonly typing: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly personButton: HTMLButtonElement;

  constructor(private readonly config: WidgetConfig) {
    this.api = new VisitorApi(config.base, config.key);
    this.t = stringsFor(config.locale);
    this.conversation = load(config.key);
    const t = this.t;
    const title = config.title ?? t.title;

    this.host = h('div', { 'data-parley-widget': '' });
    const root = this.host.attachShadow({ mode: 'open' });
    this.root = root;
    if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
      // A constructed sheet, not a <style>: pages whose CSP refuses inline styles still style the widget.
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      root.adoptedStyleSheets = [sheet];
    } else {
      root.append(h('style', {}, CSS));
    }

    this.badge = h('span', { class: 'badge', hidden: true });
    this.launcher = h('button', { class: 'launcher', type: 'button', 'aria-expanded': 'false', 'aria-controls': 'parley-panel', 'aria-label': `${t.open}: ${title}` }, icon(ICONS.chat), this.badge);
    const close = h('button', { class: 'icon-button', type: 'button', 'aria-label': t.close }, icon(ICONS.close));
    this.log = h('div', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-relevant': 'additions', tabindex: '0', 'aria-label': title }, h('p', { class: 'intro' }, t.intro));
    this.notice = h('p', { class: 'notice', role: 'status', hidden: true });
    this.typing = h('div', { class: 'typing', hidden: true }, h('span', { class: 'sr-only' }, t.typing), h('i'), h('i'), h('i'));
    this.input = h('textarea', { id: 'parley-input', rows: '1', placeholder: t.placeholder, maxlength: '10000' });
    this.sendButton = h('button', { class: 'send', type: 'submit' }, t.send);
    this.personButton = h('button', { class: 'person-button', type: 'button' }, t.talkToPerson);
    const form = h('form', { class: 'composer' }, h('label', { class: 'sr-only', for: 'parley-input' }, t.inputLabel), h('div', { class: 'row' }, this.input, this.sendButton), this.personButton);
    this.panel = h(
      'div',
      { class: 'panel', id: 'parley-panel', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'parley-title', hidden: true },
      h('div', { class: 'header' }, h('h2', { id: 'parley-title' }, title), close),
      this.log,
      this.notice,
      form,
    );
    this.log.append(this.typing);
    root.append(this.panel, this.launcher);

    const { accent, onAccent } = accentColors(config.color, this.launcher);
    this.host.style.setProperty('--accent', accent);
    this.host.style.setProperty('--on-accent', onAccent);

    this.launcher.addEventListener('click', () => this.setOpen(this.panel.hidden));
    close.addEventListener('click', () => this.setOpen(false));
    this.panel.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.setOpen(false);
    });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submitInput();
    });
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        this.submitInput();
      }
    });
    this.input.addEventListener('input', () => this.fitInput());
    this.personButton.addEventListener('click', () => void this.submit(t.personRequest, true));
  }

  mount(parent: HTMLElement): void {
    parent.append(this.host);
    if (this.conversation) void this.resume(this.conversation);
  }

  private setOpen(open: boolean): void {
    this.panel.hidden = !open;
    this.launcher.setAttribute('aria-expanded', String(open));
    if (open) {
      this.badge.hidden = true;
      this.launcher.setAttribute('aria-label', `${this.t.close}: ${this.config.title ?? this.t.title}`);
      this.scrollToEnd();
      this.input.focus();
    } else {
      this.launcher.setAttribute('aria-label', `${this.t.open}: ${this.config.title ?? this.t.title}`);
      this.launcher.focus();
    }
  }

  /** A conversation kept from an earlier page: its events so far, then the live stream. */
  private async resume(conversation: Conversation): Promise<void> {
    try {
      const page = await this.api.events(conversation);
      for (const event of page.events) this.show(event, false);
      this.setState(page);
      this.listen(conversation);
    } catch (error) {
      if (lostConversation(error)) this.forget();
      else this.report(error);
    }
  }

  private forget(): void {
    this.stream?.close();
    this.stream = null;
    this.conversation = null;
    save(this.config.key, null);
  }

  private listen(conversation: Conversation): void {
    this.stream?.close();
    this.stream = this.api.stream(conversation, {
      event: (e) => this.show(e, true),
      status: (s) => this.setState(s),
      partial: (p) => this.draft(p),
      partialEnd: (end) => this.dropDraft(end.replyTo),
    });
  }

  private async ensureConversation(): Promise<Conversation> {
    if (this.conversation) return this.conversation;
    const body: { userAttributes?: Record<string, unknown>; locale?: string } = { locale: this.config.locale };
    if (this.config.userAttributes) body.userAttributes = this.config.userAttributes;
    const conversation = await this.api.start(body);
    this.conversation = conversation;
    save(this.config.key, conversation);
    this.listen(conversation);
    return conversation;
  }

  private submitInput(): void {
    const content = this.input.value.trim();
    if (!content || this.disabled) return;
    this.input.value = '';
    this.fitInput();
    void this.submit(content, false);
  }

  private async submit(content: string, askForPerson: boolean): Promise<void> {
    if (this.disabled) return;
    const pending: Pending = { content, element: this.visitorBubble(content), id: null };
    this.pending.push(pending);
    this.append(pending.element);
    await this.deliver(pending, askForPerson);
  }

  private async deliver(pending: Pending, askForPerson: boolean): Promise<void> {
    this.inFlight += 1;
    this.typing.hidden = this.humanTakeover && !askForPerson;
    this.scrollToEnd();
    try {
      let events: VisitorEvent[];
      try {
        events = await this.api.send(await this.ensureConversation(), pending.content, askForPerson);
      } catch (error) {
        // The kept conversation was deleted or purged: the message starts a new one.
        if (!lostConversation(error) || !this.conversation) throw error;
        this.forget();
        events = await this.api.send(await this.ensureConversation(), pending.content, askForPerson);
      }
      const [mine, ...replies] = events;
      if (mine) this.confirm(pending, mine);
      for (const event of replies) this.show(event, true);
      if (mine) this.dropDraft(mine.id);
    } catch (error) {
      this.fail(pending, error, askForPerson);
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0) this.typing.hidden = true;
    }
  }

  /**
   * The visitor's message as stored. An input guardrail may have changed it (a card number
   * redacted): the bubble then shows what was stored. If the stream showed it first (not matched to
   * this bubble because its text changed), the stream's bubble stays and this one goes.
   */
  private confirm(pending: Pending, stored: VisitorEvent): void {
    const index = this.pending.indexOf(pending);
    if (index >= 0) this.pending.splice(index, 1);
    pending.id = stored.id;
    const shown = this.shown.get(stored.id);
    if (shown && shown !== pending.element) {
      pending.element.remove();
      return;
    }
    if (stored.message !== pending.content) {
      const element = this.visitorBubble(stored.message);
      pending.element.replaceWith(element);
      pending.element = element;
    }
    this.shown.set(stored.id, pending.element);
  }

  private fail(pending: Pending, error: unknown, askForPerson: boolean): void {
    this.report(error);
    // No conversation could be started: a browser hides why when the preflight is refused (the key
    // does not allow this page's origin), so an unreachable service reads the same.
    if (!this.conversation && error instanceof VisitorApiError && [0, 401, 403].includes(error.status)) {
      console.error(`Parley widget: no conversation could be started from ${location.origin}: the widget key must list this origin in its allowedOrigins, and ${this.config.base} must be reachable`);
      return this.unavailable();
    }
    pending.element.classList.add('failed');
    const why = error instanceof VisitorApiError && error.status === 429 ? this.t.tooMany(error.retryAfterSeconds ?? 60) : this.t.failed;
    const retry = h('button', { type: 'button' }, this.t.retry);
    const failure = h('span', { class: 'failure', role: 'alert' }, why, retry);
    pending.element.append(failure);
    retry.addEventListener('click', () => {
      failure.remove();
      pending.element.classList.remove('failed');
      void this.deliver(pending, askForPerson);
    });
  }

  /** A key that does not work from this page (its origin is not allowed, or it was deleted). */
  private unavailable(): void {
    this.disabled = true;
    for (const p of this.pending.splice(0)) p.element.remove();
    this.notice.textContent = this.t.unavailable;
    this.notice.hidden = false;
    this.input.disabled = true;
    this.sendButton.disabled = true;
    this.personButton.hidden = true;
  }

  private report(error: unknown): void {
    console.error(`Parley widget: ${error instanceof Error ? error.message : String(error)}`);
  }

  private setState(state: ConversationState): void {
    this.humanTakeover = state.humanTakeover;
    if (this.disabled) return;
    this.notice.textContent = state.humanTakeover ? this.t.held : '';
    this.notice.hidden = !state.humanTakeover;
    // The button goes once the team holds the conversation; the focus it had goes to the input.
    const focused = this.root.activeElement === this.personButton;
    this.personButton.hidden = state.humanTakeover;
    if (focused && state.humanTakeover) this.input.focus();
  }

  /**
   * A piece of the answer a model is writing (docs/widget.md "The stream"): shown as it grows, but
   * hidden from screen readers, which hear the stored reply once, when it replaces the draft.
   */
  private draft(partial: AnswerPartial): void {
    let draft = this.drafts.get(partial.replyTo);
    if (!draft) {
      const body = h('div', {});
      const element = h('div', { class: 'message reply draft', 'aria-hidden': 'true' }, h('span', { class: 'who' }, this.t.agent), body);
      draft = { element, body, text: '' };
      this.drafts.set(partial.replyTo, draft);
      this.append(element);
    }
    draft.text = draft.text.slice(0, partial.from) + partial.text;
    draft.body.replaceChildren(renderMarkdown(parseMarkdown(draft.text)));
    this.typing.hidden = true;
    this.scrollToEnd();
  }

  private dropDraft(replyTo: string): void {
    this.drafts.get(replyTo)?.element.remove();
    this.drafts.delete(replyTo);
  }

  /** An event of the conversation, once: from the stream, a send's answer, or the first read. */
  private show(event: VisitorEvent, live: boolean): void {
    if (this.shown.has(event.id)) return;
    // The agent's stored reply replaces what was shown while it was written (a stream on another
    // process sends no partial_end, so the reply itself ends the draft).
    if (event.role === 'parleybot') for (const replyTo of [...this.drafts.keys()]) this.dropDraft(replyTo);
    if (event.role === 'user') {
      // The stream may bring the visitor's own message before its send answered.
      const mine = this.pending.find((p) => p.id === null && p.content === event.message.trim());
      if (mine) return this.confirm(mine, event);
    }
    const element = event.role === 'user' ? this.visitorBubble(event.message) : this.reply(event);
    this.shown.set(event.id, element);
    this.append(element);
    if (live && event.role !== 'user' && this.panel.hidden) {
      this.badge.hidden = false;
      this.launcher.setAttribute('aria-label', `${this.t.open}: ${this.config.title ?? this.t.title} (${this.t.newMessage})`);
    }
  }

  private visitorBubble(content: string): HTMLElement {
    return h('div', { class: 'message user' }, h('span', { class: 'sr-only' }, `${this.t.you}: `), content);
  }

  private reply(event: VisitorEvent): HTMLElement {
    const person = event.role === 'agent';
    const body = h('div', {});
    body.append(renderMarkdown(parseMarkdown(event.message)));
    const element = h('div', { class: `message reply${person ? ' person' : ''}` }, h('span', { class: 'who' }, person ? this.t.person : this.t.agent), body);
    if (event.role === 'parleybot' && !event.handover) element.append(this.thumbs(event));
    return element;
  }

  private thumbs(event: VisitorEvent): HTMLElement {
    const up = h('button', { type: 'button', 'aria-label': this.t.helpful, 'aria-pressed': String(event.resolved === true) }, icon(ICONS.thumbUp));
    const down = h('button', { type: 'button', 'aria-label': this.t.notHelpful, 'aria-pressed': String(event.resolved === false) }, icon(ICONS.thumbDown));
    const thanks = h('span', { role: 'status' });
    const give = async (resolved: boolean) => {
      if (!this.conversation) return;
      try {
        const saved = await this.api.feedback(this.conversation, event.id, resolved);
        up.setAttribute('aria-pressed', String(saved.resolved === true));
        down.setAttribute('aria-pressed', String(saved.resolved === false));
        thanks.textContent = this.t.thanks;
      } catch (error) {
        this.report(error);
        thanks.textContent = this.t.failed;
      }
    };
    up.addEventListener('click', () => void give(true));
    down.addEventListener('click', () => void give(false));
    return h('div', { class: 'feedback' }, up, down, thanks);
  }

  /** New messages go above the typing indicator, which stays last. */
  private append(element: HTMLElement): void {
    this.log.insertBefore(element, this.typing);
    this.scrollToEnd();
  }

  private scrollToEnd(): void {
    this.log.scrollTop = this.log.scrollHeight;
  }

  private fitInput(): void {
    this.input.style.height = 'auto';
    this.input.style.height = `${Math.min(this.input.scrollHeight, 120)}px`;
  }
}
