// The visitor routes of docs/widget.md, as the widget calls them: the widget key as a bearer
// token, the conversation's visitor token as X-Visitor-Token, and the event stream through the
// browser's EventSource (which sends no headers, so both go in its query).

export interface VisitorEvent {
  id: string;
  interactionId: string;
  role: 'user' | 'parleybot' | 'agent' | 'otherbot';
  message: string;
  createdAt: string;
  handover: boolean;
  csatRating: number | null;
  resolved: boolean | null;
}

export interface ConversationState {
  status: string | null;
  humanTakeover: boolean;
}

export interface Conversation {
  conversationId: string;
  visitorToken: string;
}

/** An answer other than 2xx, with the API's message and, for a 429, the seconds to wait. */
export class VisitorApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterSeconds: number | null,
  ) {
    super(message);
  }
}

/** A piece of the agent's answer while a model writes it: keep `from` characters of the text so far, add `text`. */
export interface AnswerPartial {
  replyTo: string;
  from: number;
  text: string;
}

export interface StreamHandlers {
  event: (event: VisitorEvent) => void;
  status: (state: ConversationState) => void;
  partial: (partial: AnswerPartial) => void;
  partialEnd: (end: { replyTo: string }) => void;
}

export class VisitorApi {
  constructor(
    private readonly base: string,
    private readonly key: string,
  ) {}

  start(body: { userAttributes?: Record<string, unknown>; locale?: string }): Promise<Conversation> {
    return this.call('POST', '/v2/widget/conversations', null, body);
  }

  send(c: Conversation, content: string, askForPerson = false): Promise<VisitorEvent[]> {
    return this.call('POST', `/v2/widget/conversations/${c.conversationId}/messages`, c, askForPerson ? { content, askForPerson } : { content });
  }

  async events(c: Conversation): Promise<ConversationState & { events: VisitorEvent[] }> {
    const all: VisitorEvent[] = [];
    let after = '';
    for (;;) {
      const page = await this.call<ConversationState & { events: VisitorEvent[]; hasMore: boolean }>(
        'GET',
        `/v2/widget/conversations/${c.conversationId}/events${after ? `?after=${after}` : ''}`,
        c,
      );
      all.push(...page.events);
      if (!page.hasMore || page.events.length === 0) return { status: page.status, humanTakeover: page.humanTakeover, events: all };
      after = page.events.at(-1)!.id;
    }
  }

  feedback(c: Conversation, eventId: string, resolved: boolean): Promise<VisitorEvent> {
    return this.call('POST', `/v2/widget/conversations/${c.conversationId}/events/${eventId}/feedback`, c, { resolved });
  }

  /** The conversation's live events; the browser reconnects by itself and resumes from the last event id. */
  stream(c: Conversation, handlers: StreamHandlers): EventSource {
    const query = new URLSearchParams({ widgetKey: this.key, visitorToken: c.visitorToken });
    const source = new EventSource(`${this.base}/v2/widget/conversations/${c.conversationId}/stream?${query}`);
    source.addEventListener('event', (e) => handlers.event(JSON.parse((e as MessageEvent<string>).data) as VisitorEvent));
    source.addEventListener('status', (e) => handlers.status(JSON.parse((e as MessageEvent<string>).data) as ConversationState));
    source.addEventListener('partial', (e) => handlers.partial(JSON.parse((e as MessageEvent<string>).data) as AnswerPartial));
    source.addEventListener('partial_end', (e) => handlers.partialEnd(JSON.parse((e as MessageEvent<string>).data) as { replyTo: string }));
    return source;
  }

  private async call<T>(method: string, path: string, c: Conversation | null, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}` };
    if (c) headers['x-visitor-token'] = c.visitorToken;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit', mode: 'cors' });
    } catch {
      throw new VisitorApiError(0, 'the chat service could not be reached', null);
    }
    if (response.ok) return (await response.json()) as T;
    const error = (await response.json().catch(() => null)) as { message?: string } | null;
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new VisitorApiError(response.status, error?.message ?? response.statusText, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
  }
}
