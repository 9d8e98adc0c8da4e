// Provider connections (wave2-decisions §9): connect, read (secrets masked), test and disconnect
// each provider against its fake on 127.0.0.1; credentials sealed at rest and never answered or logged.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { providerConnections } from '../../src/db/schema/index.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { CREDENTIALS, credentialsFor, type FakeProviders, type RecordedRequest, startFakeProviders } from '../support/fake-providers.js';
import { assertError, expectStatus, type SecuredRouteRow, securitySuites } from '../support/security.js';
import { INGEST_ENV } from '../support/sources.js';

const connection = (provider: string) => `/v2/providers/${provider}/connection/public`;
const test = (provider: string) => `/v2/providers/${provider}/connection/test/public`;

interface Connection {
  provider: string;
  connected: boolean;
  account?: string;
  baseUrl?: string;
  credentials?: Record<string, string>;
  createdAt?: string;
  updatedAt?: string;
}

const SECRETS = [CREDENTIALS.notionToken, CREDENTIALS.zendeskToken, CREDENTIALS.confluenceToken, CREDENTIALS.driveToken];

describe('provider connections', () => {
  let t: TestApp;
  let fake: FakeProviders;
  let tenant: Tenant;
  let creds: Record<string, Record<string, string>>;
  before(async () => {
    fake = await startFakeProviders();
    t = await startTestApp({ env: INGEST_ENV });
    tenant = await makeTenant(t);
    creds = credentialsFor(fake);
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  it('answers { provider, connected: false } for a provider never connected', async () => {
    for (const provider of ['notion', 'zendesk', 'confluence', 'googledrive']) {
      assert.deepEqual(await expectStatus(t, 200, 'GET', connection(provider), tenant.key), { provider, connected: false });
    }
  });

  it('connects each provider after checking the credentials with it, and answers secrets as ********', async () => {
    const accounts = { notion: 'Acme Support', zendesk: CREDENTIALS.zendeskEmail, confluence: CREDENTIALS.confluenceEmail, googledrive: 'ops@acme.test' };
    for (const [provider, account] of Object.entries(accounts)) {
      const mark = fake.requests.length;
      const put = await expectStatus<Connection>(t, 200, 'PUT', connection(provider), tenant.key, creds[provider]);
      assert.equal(put.provider, provider);
      assert.equal(put.connected, true);
      assert.equal(put.account, account);
      assert.equal(put.baseUrl, creds[provider]!.baseUrl);
      assert.match(put.createdAt!, /^\d{4}-\d{2}-\d{2}T/);
      assert.ok(fake.since(mark).length >= 1, `${provider}: the credentials were checked with the provider`);
      const got = await expectStatus<Connection>(t, 200, 'GET', connection(provider), tenant.key);
      assert.deepEqual(got, put);
    }
    const notion = await expectStatus<Connection>(t, 200, 'GET', connection('notion'), tenant.key);
    assert.deepEqual(notion.credentials, { token: '********' });
    const zendesk = await expectStatus<Connection>(t, 200, 'GET', connection('zendesk'), tenant.key);
    assert.deepEqual(zendesk.credentials, { email: CREDENTIALS.zendeskEmail, apiToken: '********' });
  });

  it('sends each provider its documented auth headers', async () => {
    const mark = fake.requests.length;
    for (const provider of ['notion', 'zendesk', 'confluence', 'googledrive']) {
      assert.deepEqual(await expectStatus(t, 200, 'POST', test(provider), tenant.key), {
        provider,
        ok: true,
        account: { notion: 'Acme Support', zendesk: CREDENTIALS.zendeskEmail, confluence: CREDENTIALS.confluenceEmail, googledrive: 'ops@acme.test' }[provider],
        error: null,
      });
    }
    const [notion, zendesk, confluence, drive] = [/^\/v1\/users\/me/, /^\/api\/v2\/users\/me\.json/, /^\/wiki\/rest\/api\/user\/current/, /^\/drive\/v3\/about/].map((p) => fake.since(mark, p)[0]!) as [
      RecordedRequest,
      RecordedRequest,
      RecordedRequest,
      RecordedRequest,
    ];
    assert.equal(notion.headers.authorization, `Bearer ${CREDENTIALS.notionToken}`);
    assert.equal(notion.headers['notion-version'], '2025-09-03');
    assert.equal(zendesk.headers.authorization, `Basic ${Buffer.from(`${CREDENTIALS.zendeskEmail}/token:${CREDENTIALS.zendeskToken}`).toString('base64')}`);
    assert.equal(confluence.headers.authorization, `Basic ${Buffer.from(`${CREDENTIALS.confluenceEmail}:${CREDENTIALS.confluenceToken}`).toString('base64')}`);
    assert.equal(drive.headers.authorization, `Bearer ${CREDENTIALS.driveToken}`);
    assert.match(drive.path, /fields=user/);
  });

  it('stores credentials sealed: the database holds no secret in clear, and no answer or log line does', async () => {
    const rows = await t.database.db.select().from(providerConnections);
    const stored = JSON.stringify(rows);
    for (const secret of SECRETS) assert.ok(!stored.includes(secret), 'not in the database in clear');
    assert.ok(rows.length >= 4 && rows.every((r) => r.sealedCredentials.startsWith('v1.')));
    const logs = JSON.stringify(t.logs);
    for (const secret of SECRETS) assert.ok(!logs.includes(secret), 'not in the logs');
  });

  it('keeps the stored secret when ******** is sent back, and replaces the connection on a second PUT', async () => {
    const before = await expectStatus<Connection>(t, 200, 'GET', connection('zendesk'), tenant.key);
    const put = await expectStatus<Connection>(t, 200, 'PUT', connection('zendesk'), tenant.key, { email: CREDENTIALS.zendeskEmail, apiToken: '********', baseUrl: fake.url });
    assert.equal(put.createdAt, before.createdAt);
    assert.equal(put.account, CREDENTIALS.zendeskEmail);
    assert.deepEqual((await expectStatus<{ ok: boolean }>(t, 200, 'POST', test('zendesk'), tenant.key)).ok, true);
  });

  it('refuses credentials the provider rejects (400 naming the provider) and keeps the stored connection', async () => {
    const cases: [string, Record<string, string>, RegExp][] = [
      ['notion', { token: 'ntn_wrong', baseUrl: fake.url }, /^notion: Notion refused to check the credentials: expired connection: Notion refused the credentials \(HTTP 401\)/],
      ['zendesk', { email: 'ops@acme.test', apiToken: 'wrong', baseUrl: fake.url }, /^zendesk: .*expired connection: Zendesk did not accept the email and API token/],
      ['confluence', { email: 'wiki@acme.test', apiToken: 'wrong', baseUrl: `${fake.url}/wiki` }, /^confluence: .*HTTP 401/],
      ['googledrive', { accessToken: 'ya29.wrong', baseUrl: fake.url }, /^googledrive: .*HTTP 401/],
    ];
    for (const [provider, body, message] of cases) {
      assertError(await t.request('PUT', connection(provider), { key: tenant.key, body }), 400, message);
      assert.equal((await expectStatus<Connection>(t, 200, 'GET', connection(provider), tenant.key)).connected, true);
    }
  });

  it('validates the fields of each provider, naming the field', async () => {
    const other = await makeTenant(t);
    const cases: [string, unknown, RegExp][] = [
      ['notion', {}, /^body\.token: required for notion/],
      ['zendesk', { email: 'a@b.c', apiToken: 'x' }, /^body\.subdomain: required for zendesk \(or give baseUrl\)/],
      ['zendesk', { subdomain: 'acme', apiToken: 'x' }, /^body\.email: required for zendesk/],
      ['confluence', { email: 'a@b.c', apiToken: 'x' }, /^body\.baseUrl: required for confluence/],
      ['googledrive', {}, /^body\.accessToken: required for googledrive \(or give serviceAccountJson\)/],
      ['googledrive', { serviceAccountJson: '{"client_email":"x"}' }, /^body\.serviceAccountJson: the service account key has no private_key/],
      ['notion', { token: 'x', apiToken: 'y' }, /^body\.apiToken: not a notion credential/],
      ['notion', { token: 'x', baseUrl: 'ftp://files.acme.test' }, /^body\.baseUrl: must be an http\(s\) URL/],
      ['notion', { token: 'x', unknown: 1 }, /unknown/i],
      ['notion', { token: '********' }, /^body\.token: \*\*\*\*\*\*\*\* keeps a stored secret, and notion has none stored/],
      ['zendesk', { subdomain: 'acme corp', email: 'a@b.c', apiToken: 'x' }, /^body\.subdomain/],
      ['notion', { token: 'x', baseUrl: 'https://user:pass@proxy.acme.test' }, /^body\.baseUrl: URLs with credentials are not accepted/],
      ['notion', { token: 'x', baseUrl: 'https://proxy.acme.test/?via=1' }, /^body\.baseUrl: give the API base without a query or fragment/],
      ['googledrive', { serviceAccountJson: 'not json' }, /^body\.serviceAccountJson/],
    ];
    for (const [provider, body, message] of cases) assertError(await t.request('PUT', connection(provider), { key: other.key, body }), 400, message);
    assertError(await t.request('PUT', connection('dropbox'), { key: other.key, body: { token: 'x' } }), 400, /provider/);
    assertError(await t.request('GET', connection('provider_notes'), { key: other.key }), 400, /provider/);
    assert.deepEqual(await expectStatus(t, 200, 'GET', connection('notion'), other.key), { provider: 'notion', connected: false });
  });

  it('refuses a baseUrl on a private address unless the operator allows it', async () => {
    const strict = await startTestApp();
    try {
      const someone = await makeTenant(strict);
      assertError(
        await strict.request('PUT', connection('notion'), { key: someone.key, body: { token: CREDENTIALS.notionToken, baseUrl: fake.url } }),
        400,
        /private or loopback address/,
      );
    } finally {
      await strict.close();
    }
  });

  it('connects Drive with a service account key: a signed JWT exchanged at the key\'s token_uri', async () => {
    const other = await makeTenant(t);
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const key = { type: 'service_account', client_email: fake.drive.serviceAccountEmail, private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }), token_uri: `${fake.url}/token` };
    const mark = fake.requests.length;
    const put = await expectStatus<Connection>(t, 200, 'PUT', connection('googledrive'), other.key, { serviceAccountJson: JSON.stringify(key), baseUrl: fake.url });
    assert.equal(put.account, 'ops@acme.test');
    assert.deepEqual(put.credentials, { serviceAccountJson: '********' });
    const grant = fake.since(mark, /^\/token$/)[0]!;
    const form = new URLSearchParams(grant.body);
    assert.equal(form.get('grant_type'), 'urn:ietf:params:oauth:grant-type:jwt-bearer');
    const claims = JSON.parse(Buffer.from(form.get('assertion')!.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    assert.equal(claims.iss, fake.drive.serviceAccountEmail);
    assert.equal(claims.scope, 'https://www.googleapis.com/auth/drive.readonly');
    assert.ok(!JSON.stringify(t.logs).includes('PRIVATE KEY'), 'the key is never logged');
  });

  it('answers 502 when the provider cannot be reached, and test reports ok: false with the reason', async () => {
    const other = await makeTenant(t);
    // A port of a server of this test that has closed: connection refused.
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const port = (gone.address() as AddressInfo).port;
    await new Promise((resolve) => gone.close(resolve));
    assertError(
      await t.request('PUT', connection('notion'), { key: other.key, body: { token: CREDENTIALS.notionToken, baseUrl: `http://127.0.0.1:${port}` } }),
      502,
      /^Notion could not check the credentials now: Notion could not be reached/,
    );
    await expectStatus(t, 200, 'PUT', connection('notion'), other.key, creds.notion);
    fake.fail(/^\/v1\/users\/me/, 401);
    const result = await expectStatus<{ ok: boolean; account: unknown; error: string }>(t, 200, 'POST', test('notion'), other.key);
    assert.equal(result.ok, false);
    assert.equal(result.account, null);
    assert.match(result.error, /^expired connection: Notion refused the credentials \(HTTP 401\); reconnect notion$/);
  });

  it('disconnects: DELETE forgets the credentials, then test is a 400 and a second DELETE a 404', async () => {
    const other = await makeTenant(t);
    await expectStatus(t, 200, 'PUT', connection('confluence'), other.key, creds.confluence);
    assert.deepEqual(await expectStatus(t, 200, 'DELETE', connection('confluence'), other.key), { provider: 'confluence', connected: false });
    assert.deepEqual(await expectStatus(t, 200, 'GET', connection('confluence'), other.key), { provider: 'confluence', connected: false });
    assertError(await t.request('POST', test('confluence'), { key: other.key }), 400, /^confluence is not connected in this workspace/);
    assertError(await t.request('DELETE', connection('confluence'), { key: other.key }), 404, 'confluence is not connected in this workspace');
  });

  it("never shows or uses another workspace's connection", async () => {
    const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
    await expectStatus(t, 200, 'PUT', connection('notion'), owner.key, creds.notion);
    assert.deepEqual(await expectStatus(t, 200, 'GET', connection('notion'), caller.key), { provider: 'notion', connected: false });
    assertError(await t.request('POST', test('notion'), { key: caller.key }), 400, /^notion is not connected/);
    assertError(await t.request('DELETE', connection('notion'), { key: caller.key }), 404);
    assertError(await t.request('GET', '/v2/documents/public/resources/notion', { key: caller.key }), 400, /^notion is not connected/);
    assert.equal((await expectStatus<Connection>(t, 200, 'GET', connection('notion'), owner.key)).connected, true);
  });

  describe('security', () => {
    const routes: SecuredRouteRow[] = [
      ['connect', 'PUT', 'write', async () => ({ path: connection('notion'), body: creds.notion }), undefined],
      ['read', 'GET', 'read', async () => ({ path: connection('notion') }), undefined],
      ['disconnect', 'DELETE', 'write', async () => ({ path: connection('notion') }), undefined],
      ['test', 'POST', 'write', async () => ({ path: test('notion') }), undefined],
      ['discover', 'GET', 'read', async () => ({ path: '/v2/documents/public/resources/notion' }), undefined],
      [
        'register',
        'POST',
        'write',
        async () => ({ path: '/v2/documents/public/resources/notion', body: { resources: [{ externalId: '1f2e3d4c5b6a47898abcdef012345678', title: 'x', originalUrl: 'https://www.notion.so/x', mimeType: 'text/markdown' }] } }),
        undefined,
      ],
    ];
    securitySuites(() => t, routes);
  });
});
