// A webhook receiver on 127.0.0.1 that records what Parley sends and answers as the test tells it:
// shared by the webhook tests (test/webhooks) and the console's browser tests (e2e/webhooks.e2e.ts).
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type RecordedRequest, recordingServer } from './recording-server.js';

/** What the receiver does with one request: answer a status, or hang (a timeout). */
export type Answer = number | 'hang';

export interface Receiver {
  url: string;
  requests: RecordedRequest[];
  /** The answers to give, in order; once spent, `otherwise`. */
  answers: Answer[];
  otherwise: Answer;
  close(): Promise<void>;
}

/** An HTTP receiver on 127.0.0.1 (the network guard allows the ports of this process's servers). */
export async function startReceiver(otherwise: Answer = 200): Promise<Receiver> {
  const requests: RecordedRequest[] = [];
  const hanging: ServerResponse[] = [];
  const receiver: Receiver = { url: '', requests, answers: [], otherwise, close: async () => undefined };
  const server = recordingServer(requests, (_req: IncomingMessage, res: ServerResponse) => {
    const answer = receiver.answers.shift() ?? receiver.otherwise;
    if (answer === 'hang') {
      hanging.push(res);
      return;
    }
    res.writeHead(answer, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: answer < 300 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}
