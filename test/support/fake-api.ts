import './network-guard.js';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RecordedRequest, recordingServer } from './recording-server.js';

/**
 * A fake "customer API" on 127.0.0.1 (orders, customers, subscriptions) that records every request
 * it receives, for the actions engine's tests. Routes:
 * - `GET /orders/{id}`: `{ data: { id, status, customerId, items: [{ sku }, { sku }] } }`, 404 for `missing`
 * - `GET /customers/{id}`: `{ name, email, plan }`
 * - `POST /subscriptions/{id}/cancel`: `{ cancelled: true, id, received, authorization }` (echoes the
 *   Authorization header, to prove echoed secrets are masked)
 * - `GET /flaky`: 500 on every odd request, 200 on every even one; `POST /always-500`: 500
 * - `GET /slow`: answers after 2 s; `GET /text`: a text/plain body; `GET /big`: 2 MB of JSON
 */
export interface FakeApi {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeApi(): Promise<FakeApi> {
  const requests: FakeApi['requests'] = [];
  let flaky = 0;
  const json = (res: ServerResponse, status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  const server: Server = recordingServer(requests, (req, res, body) => {
    const [route = ''] = (req.url ?? '/').split('?');
    let m: RegExpExecArray | null;
    if (req.method === 'GET' && (m = /^\/orders\/([^/]+)$/.exec(route))) {
      const id = decodeURIComponent(m[1]!);
      if (id === 'missing') return json(res, 404, { error: 'no such order' });
      return json(res, 200, { data: { id, status: 'shipped', customerId: 'c_42', items: [{ sku: 'A-1' }, { sku: 'B-2' }] } });
    }
    if (req.method === 'GET' && (m = /^\/customers\/([^/]+)$/.exec(route))) return json(res, 200, { name: 'Ada Lovelace', email: 'ada@example.com', plan: 'pro', id: m[1] });
    if (req.method === 'POST' && (m = /^\/subscriptions\/([^/]+)\/cancel$/.exec(route))) {
      return json(res, 200, { cancelled: true, id: m[1], received: body ? JSON.parse(body) : null, authorization: req.headers.authorization ?? null });
    }
    if (route === '/flaky') {
      flaky += 1;
      return flaky % 2 === 1 ? json(res, 500, { error: 'try again' }) : json(res, 200, { ok: true, attempt: flaky });
    }
    if (route === '/always-500') return json(res, 500, { error: 'down' });
    if (route === '/slow') {
      setTimeout(() => json(res, 200, { late: true }), 2_000);
      return;
    }
    if (route === '/text') return res.writeHead(200, { 'content-type': 'text/plain' }).end('plain words');
    if (route === '/big') return json(res, 200, { blob: 'x'.repeat(2 * 1024 * 1024) });
    return json(res, 404, { error: 'not found' });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
