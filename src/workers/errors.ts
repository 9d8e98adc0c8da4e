import { LlmError, type TokenUsage } from '../ai/provider.js';
import { UnsupportedContentError } from '../ingest/extract/index.js';

/**
 * Errors crossing the thread boundary. Structured cloning keeps only a plain Error's message, so
 * the worker sends what each class needs and the main thread rebuilds the same class: callers keep
 * branching on `instanceof LlmError` or `UnsupportedContentError` and keep the same messages.
 */
export type WireError =
  | { kind: 'llm'; message: string; retryable: boolean; usage: TokenUsage; transient: boolean }
  | { kind: 'unsupported_content'; message: string }
  | { kind: 'error'; name: string; message: string; stack: string | undefined };

/** The worker side: an error as plain data. */
export function toWireError(error: unknown): WireError {
  if (error instanceof LlmError) {
    return { kind: 'llm', message: error.message, retryable: error.retryable, usage: { ...error.usage }, transient: error.transient };
  }
  if (error instanceof UnsupportedContentError) return { kind: 'unsupported_content', message: error.message };
  if (error instanceof Error) return { kind: 'error', name: error.name, message: error.message, stack: error.stack };
  return { kind: 'error', name: 'Error', message: String(error), stack: undefined };
}

/** The main thread side: the error the work would have thrown had it run here. */
export function fromWireError(wire: WireError): Error {
  switch (wire.kind) {
    case 'llm':
      return new LlmError(wire.message, wire.retryable, wire.usage, wire.transient);
    case 'unsupported_content':
      return new UnsupportedContentError(wire.message);
    case 'error': {
      const error = new Error(wire.message);
      error.name = wire.name;
      if (wire.stack) error.stack = `${wire.stack}\n    (in a CPU pool thread)`;
      return error;
    }
  }
}
