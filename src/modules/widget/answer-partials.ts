/** The growing text of the agent's answer to a visitor's message (`replyTo`), before it is stored. */
export interface AnswerPartial {
  replyTo: string;
  text: string;
}

export interface PartialsListener {
  partial(partial: AnswerPartial): void;
  /** The answer to `replyTo` is stored (or was given up): the stored events are what counts now. */
  done(replyTo: string): void;
}

/**
 * The answers being written for the conversations of this process (docs/widget.md "The stream"):
 * the visitor-message route publishes a model's answer as it grows, the open streams of the same
 * conversation in this process relay it. In memory only: a stream on another process gets the
 * stored reply alone, as with the built-in engine.
 */
export class AnswerPartials {
  private readonly listeners = new Map<string, Set<PartialsListener>>();

  /** Listens to one conversation's answers; answers the function that stops listening. */
  subscribe(conversationId: string, listener: PartialsListener): () => void {
    let set = this.listeners.get(conversationId);
    if (!set) this.listeners.set(conversationId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(conversationId) === set) this.listeners.delete(conversationId);
    };
  }

  /**
   * The publisher of one message's answer: `onPartial` for postEvent, and `done` for when postEvent
   * returned or failed (it tells the listeners only if a partial went out).
   */
  publisher(conversationId: string): { onPartial: (partial: AnswerPartial) => void; done: () => void } {
    let replyTo: string | undefined;
    return {
      onPartial: (partial) => {
        replyTo = partial.replyTo;
        for (const listener of this.listeners.get(conversationId) ?? []) listener.partial(partial);
      },
      done: () => {
        if (replyTo === undefined) return;
        for (const listener of this.listeners.get(conversationId) ?? []) listener.done(replyTo);
      },
    };
  }
}
