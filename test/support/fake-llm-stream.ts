/**
 * The fake model server's streamed chat completions (`stream: true`), in OpenAI's wire format:
 * `text/event-stream` of `data: <chat.completion.chunk>` lines, the role first, the content in
 * pieces, the finish reason, the usage (when the request asked for it with
 * `stream_options.include_usage`), then `data: [DONE]`.
 */

/** The parts of a non-streamed chat completion that a stream carries. */
export interface ChatCompletion {
  id: string;
  created: number;
  model: string;
  content: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/** Characters of content per chunk when a reply does not say. */
export const DEFAULT_CHUNK_SIZE = 16;

/** The `data:` payloads of one streamed completion, in order (without `[DONE]`). */
export function completionChunks(completion: ChatCompletion, options: { chunkSize: number; includeUsage: boolean }): unknown[] {
  const head = { id: completion.id, object: 'chat.completion.chunk', created: completion.created, model: completion.model };
  const choice = (delta: Record<string, string>, finishReason: string | null) => ({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });
  const chunks: unknown[] = [choice({ role: 'assistant', content: '' }, null)];
  const size = Math.max(1, options.chunkSize);
  for (let at = 0; at < completion.content.length; at += size) chunks.push(choice({ content: completion.content.slice(at, at + size) }, null));
  chunks.push(choice({}, 'stop'));
  if (options.includeUsage) chunks.push({ ...head, choices: [], usage: completion.usage });
  return chunks;
}

/** Whether a streamed chat request asked for the usage chunk. */
export const wantsUsage = (body: Record<string, unknown>): boolean => (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
