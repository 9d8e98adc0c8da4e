import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { gzipSync, brotliCompressSync, deflateSync } from 'node:zlib';
import { createSafeFetch, describeHttpStatus, FetchError, isPrivateAddress } from '../../src/ingest/fetch/safe-fetch.js';
import type { ClosableSafeFetch, FetchFailureKind, SafeFetchOptions } from '../../src/ingest/fetch/safe-fetch.js';

const UA = 'ParleyBot/0.1 (+https://github.com/parley; self-hosted support agent)';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(handler: Handler, host = '127.0.0.1'): Promise<{ server: Server; origin: string; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://${host}:${port}`, port };
}

async function expectFailure(promise: Promise<unknown>, kind: FetchFailureKind): Promise<FetchError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof FetchError, `expected FetchError, got ${String(error)}`);
    assert.equal(error.kind, kind, error.message);
    return error;
  }
  assert.fail(`expected a ${kind} failure`);
}

const fetchers: ClosableSafeFetch[] = [];
function makeFetch(overrides: Partial<SafeFetchOptions> = {}): ClosableSafeFetch {
  const fetcher = createSafeFetch({ allowPrivate: true, userAgent: UA, timeoutMs: 5_000, maxBytes: 1024 * 1024, maxRedirects: 5, ...overrides });
  fetchers.push(fetcher);
  return fetcher;
}

const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024)); // 64 MiB of zeros in ~64 KiB

const routes: Record<string, Handler> = {
  '/hello': (req, res) => {
    res.setHeader('content-type', 'text/html; charset="UTF-8"');
    res.end(`<p>hello ${req.headers['user-agent'] ?? ''} accept=${req.headers.accept ?? ''}</p>`);
  },
  '/gzip': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
    res.end(gzipSync('compressed with gzip'));
  },
  '/br': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' });
    res.end(brotliCompressSync('compressed with brotli'));
  },
  '/deflate': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'deflate' });
    res.end(deflateSync('compressed with deflate'));
  },
  '/bomb': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
    res.end(bomb);
  },
  '/big': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(Buffer.alloc(2 * 1024 * 1024, 1));
  },
  '/slow': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('start');
    const timer = setTimeout(() => res.end('end'), 3_000);
    res.on('close', () => clearTimeout(timer));
  },
  '/missing': (_req, res) => {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('nope');
  },
  '/error': (_req, res) => {
    res.writeHead(503);
    res.end();
  },
  '/not-modified': (_req, res) => {
    res.writeHead(304);
    res.end();
  },
};

function router(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const hops = /^\/redirect\/(\d+)$/.exec(url.pathname);
  if (hops) {
    const left = Number(hops[1]);
    res.writeHead(302, { location: left > 0 ? `/redirect/${left - 1}` : '/hello' });
    res.end();
    return;
  }
  if (url.pathname === '/to') {
    res.writeHead(301, { location: url.searchParams.get('u') ?? '/' });
    res.end();
    return;
  }
  const handler = routes[url.pathname];
  if (handler) handler(req, res);
  else routes['/missing']?.(req, res);
}

describe('isPrivateAddress', () => {
  const blocked = [
    '127.0.0.1', '127.255.255.254', '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.1.1',
    '100.64.0.1', '100.127.255.255', '169.254.169.254', '169.254.0.1', '0.0.0.0', '0.1.2.3', '224.0.0.1',
    '239.255.255.250', '255.255.255.255', '240.0.0.1', '192.0.2.5', '198.18.0.1', '::1', '::', 'fc00::1',
    'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1',
    '::ffff:169.254.169.254', '[::1]', '64:ff9b::a00:1', '2002:7f00:1::', '2001:db8::1', 'not an ip',
  ];
  const allowed = [
    '8.8.8.8', '1.1.1.1', '93.184.216.34', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1',
    '169.253.255.255', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808',
    '2002:808:808::1',
  ];
  for (const ip of blocked) it(`blocks ${ip}`, () => assert.equal(isPrivateAddress(ip), true));
  for (const ip of allowed) it(`allows ${ip}`, () => assert.equal(isPrivateAddress(ip), false));
});

describe('describeHttpStatus', () => {
  it('describes failures for people and passes usable answers', () => {
    assert.equal(describeHttpStatus(200), null);
    assert.equal(describeHttpStatus(204), null);
    assert.equal(describeHttpStatus(304), null);
    assert.equal(describeHttpStatus(401), 'the page needs authentication (HTTP 401)');
    assert.equal(describeHttpStatus(403), 'the page needs authentication (HTTP 403)');
    assert.equal(describeHttpStatus(404), 'page not found (HTTP 404)');
    assert.equal(describeHttpStatus(410), 'page not found (HTTP 410)');
    assert.equal(describeHttpStatus(429), 'rate limited by the site (HTTP 429)');
    assert.equal(describeHttpStatus(503), 'the site answered HTTP 503');
    assert.equal(describeHttpStatus(418), 'the site answered HTTP 418');
    assert.equal(describeHttpStatus(302), 'the site answered HTTP 302');
  });
});

describe('safeFetch', () => {
  let origin = '';
  let port = 0;
  let server: Server;
  let second: { server: Server; origin: string; port: number } | null = null;

  before(async () => {
    ({ server, origin, port } = await listen(router));
  });
  after(async () => {
    await Promise.all(fetchers.map((fetcher) => fetcher.close()));
    server.close();
    second?.server.close();
  });

  it('fetches from loopback when private addresses are allowed, with our User-Agent and Accept', async () => {
    const result = await makeFetch()({ url: `${origin}/hello` });
    assert.equal(result.status, 200);
    assert.equal(result.url, `${origin}/hello`);
    assert.equal(result.contentType, 'text/html');
    assert.equal(result.charset, 'utf-8');
    assert.equal(result.headers['content-type'], 'text/html; charset="UTF-8"');
    assert.deepEqual(result.redirects, []);
    const text = Buffer.from(result.body).toString();
    assert.match(text, /ParleyBot\/0\.1/);
    assert.match(text, /accept=text\/html/);
  });

  describe('refuses private and loopback targets when allowPrivate is false', () => {
    const cases = (p: () => number): string[] => [
      `http://127.0.0.1:${p()}/hello`,
      `http://localhost:${p()}/hello`,
      `http://[::1]:${p()}/hello`,
      `http://0.0.0.0:${p()}/hello`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.1.2.3/',
      'http://192.168.0.1/',
      `http://[::ffff:127.0.0.1]:${p()}/hello`,
      'http://2130706433/', // 127.0.0.1 written as one number; WHATWG parses it
      'http://0x7f.1/',
    ];
    it('every form of a private address', async () => {
      const safeFetch = makeFetch({ allowPrivate: false });
      for (const url of cases(() => port)) {
        const error = await expectFailure(safeFetch({ url }), 'blocked_address');
        assert.match(error.message, /^refused to fetch .*: private or loopback address$/);
      }
    });
    it('says which URL it refused', async () => {
      const error = await expectFailure(makeFetch({ allowPrivate: false })({ url: 'http://10.0.0.1/' }), 'blocked_address');
      assert.equal(error.message, 'refused to fetch http://10.0.0.1/: private or loopback address');
    });
  });

  it('re-validates every redirect hop', async () => {
    // 127.0.0.1 stands for a public host, 127.0.0.2 for the internal one a redirect points at.
    second = await listen(routes['/hello'] as Handler, '127.0.0.2');
    const safeFetch = makeFetch({ allowPrivate: false, isBlockedAddress: (ip) => ip === '127.0.0.2' });
    const direct = await safeFetch({ url: `${origin}/hello` });
    assert.equal(direct.status, 200);
    const target = `${second.origin}/hello`;
    await expectFailure(safeFetch({ url: `${origin}/to?u=${encodeURIComponent(target)}` }), 'blocked_address');
    // The same redirect is followed when the target is allowed.
    const allowed = await makeFetch()({ url: `${origin}/to?u=${encodeURIComponent(target)}` });
    assert.equal(allowed.url, target);
    assert.deepEqual(allowed.redirects, [`${origin}/to?u=${encodeURIComponent(target)}`]);
  });

  it('connects to the address it vetted (DNS pinning through the Agent lookup)', async () => {
    const resolved: string[] = [];
    const resolve = async (hostname: string) => {
      resolved.push(hostname);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const pinned = makeFetch({ allowPrivate: true, resolve });
    const result = await pinned({ url: `http://docs.example.test:${port}/hello` });
    assert.equal(result.status, 200);
    assert.deepEqual(resolved, ['docs.example.test']);
    // The same name with one private answer among public ones is refused outright.
    const mixed = makeFetch({
      allowPrivate: false,
      resolve: async () => [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.7', family: 4 }],
    });
    await expectFailure(mixed({ url: 'http://rebind.example.test/' }), 'blocked_address');
  });

  it('reports DNS failures', async () => {
    const failing = makeFetch({
      resolve: async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
      },
    });
    await expectFailure(failing({ url: 'http://no-such-host.example.test/' }), 'dns');
  });

  it('refuses non-http schemes, credentials and garbage', async () => {
    const safeFetch = makeFetch();
    for (const url of ['file:///etc/passwd', 'ftp://example.com/file', 'javascript:alert(1)', 'data:text/plain,hi', 'not a url', `http://user:pass@127.0.0.1:${port}/hello`]) {
      await expectFailure(safeFetch({ url }), 'invalid_url');
    }
  });

  it('follows redirects and caps them', async () => {
    const safeFetch = makeFetch({ maxRedirects: 3 });
    const ok = await safeFetch({ url: `${origin}/redirect/2` });
    assert.equal(ok.status, 200);
    assert.equal(ok.url, `${origin}/hello`);
    assert.deepEqual(ok.redirects, [`${origin}/redirect/2`, `${origin}/redirect/1`, `${origin}/redirect/0`]);
    await expectFailure(safeFetch({ url: `${origin}/redirect/3` }), 'too_many_redirects');
  });

  it('refuses a redirect to another scheme', async () => {
    await expectFailure(makeFetch()({ url: `${origin}/to?u=${encodeURIComponent('file:///etc/passwd')}` }), 'invalid_url');
  });

  it('returns non-2xx answers with their status', async () => {
    const safeFetch = makeFetch();
    assert.equal((await safeFetch({ url: `${origin}/missing` })).status, 404);
    assert.equal((await safeFetch({ url: `${origin}/error` })).status, 503);
    assert.equal((await safeFetch({ url: `${origin}/not-modified` })).status, 304);
  });

  it('decompresses gzip, brotli and deflate', async () => {
    const safeFetch = makeFetch();
    for (const [path, text] of [['/gzip', 'compressed with gzip'], ['/br', 'compressed with brotli'], ['/deflate', 'compressed with deflate']] as const) {
      const result = await safeFetch({ url: `${origin}${path}` });
      assert.equal(Buffer.from(result.body).toString(), text);
    }
  });

  it('stops a gzip bomb at maxBytes of decompressed data', async () => {
    const started = Date.now();
    await expectFailure(makeFetch({ maxBytes: 1024 * 1024 })({ url: `${origin}/bomb` }), 'too_large');
    assert.ok(Date.now() - started < 2_000);
  });

  it('stops a plain body past maxBytes', async () => {
    const error = await expectFailure(makeFetch({ maxBytes: 1024 * 1024 })({ url: `${origin}/big` }), 'too_large');
    assert.match(error.message, /larger than 1 MiB/);
    const ok = await makeFetch({ maxBytes: 3 * 1024 * 1024 })({ url: `${origin}/big` });
    assert.equal(ok.body.byteLength, 2 * 1024 * 1024);
  });

  it('times out over the whole request including the body', async () => {
    const started = Date.now();
    await expectFailure(makeFetch({ timeoutMs: 300 })({ url: `${origin}/slow` }), 'timeout');
    assert.ok(Date.now() - started < 2_000);
  });

  it('reports a caller abort as aborted', async () => {
    const controller = new AbortController();
    const pending = makeFetch()({ url: `${origin}/slow`, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expectFailure(pending, 'aborted');
  });

  it('supports HEAD', async () => {
    const result = await makeFetch()({ url: `${origin}/hello`, method: 'HEAD' });
    assert.equal(result.status, 200);
    assert.equal(result.body.byteLength, 0);
  });

  it('reports a refused connection as a network failure', async () => {
    const closed = await listen(router);
    await new Promise((resolve) => closed.server.close(resolve));
    await expectFailure(makeFetch()({ url: `${closed.origin}/hello` }), 'network');
  });
});
