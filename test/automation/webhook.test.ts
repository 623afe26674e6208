import { createHmac, randomBytes } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { gatewayFor, startWorker } from '../helpers/temporal';
import { addressPolicy, resolveTarget, WebhookRefused, type AddressPolicy } from '../../src/modules/automations/webhook/address-policy';
import { sendWebhook, WebhookTimeout } from '../../src/modules/automations/webhook/send';
import { startEngine, type Engine } from './engine';
import { addContact, executionIn, linearWorkflow, startExecution, type Body } from './helpers';
import { json, WebhookServer } from './webhook-server';
import { tenant } from '../helpers/tenants';

let engine: Engine;
let stack: TestStack;
let server: WebhookServer;
beforeAll(async () => {
  // Loopback is where the receiving test server runs, so this stack allows private addresses.
  engine = await startEngine({ timeSkipping: true, env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  stack = engine.stack;
  server = await WebhookServer.start();
});
afterAll(async () => {
  await server?.close();
  await engine?.close();
});

const history = (e: Body) => e.stepHistory as Array<{ status: string; output: Record<string, unknown> | null; error: string | null }>;

async function webhookExecution(config: object, context: object = {}) {
  const t = await tenant(stack);
  const contactId = await addContact(t, 'ann@example.test', { plan: 'pro' });
  const { workflow, stepIds } = await linearWorkflow(t, [['WEBHOOK', config]], { name: 'Hooks' });
  const started = await startExecution(t, workflow.id, { contactId, context });
  return { t, workflow, stepId: stepIds[0]!, contactId, started };
}

describe('WEBHOOK steps (time-skipping, loopback allowed)', () => {
  it('POSTs the default payload, signed with the workflow secret, with the custom headers', async () => {
    const path = `/in-${randomBytes(3).toString('hex')}`;
    server.on(path, (_req, res) => json(res, 201, { received: true }));
    const { t, workflow, stepId, contactId, started } = await webhookExecution(
      { url: server.url(path), headers: { 'X-Team': 'growth' } },
      { coupon: 'A1' },
    );
    const done = await executionIn(t, workflow.id, started.id, ['COMPLETED']);
    expect(history(done)[0]!.output).toEqual({ status: 201, body: { received: true }, url: server.url(path) });

    const [req] = server.to(path);
    expect(req!.method).toBe('POST');
    expect(req!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-team': 'growth',
      'x-postwire-delivery': `${started.id}:${stepId}`,
      'user-agent': expect.stringMatching(/^Postwire-Webhook\//),
    });
    const secret = (await t.c.get(`/workflows/${workflow.id}`).expect(200)).body.webhookSecret;
    expect(req!.headers['x-postwire-signature']).toBe(`sha256=${createHmac('sha256', secret).update(req!.body).digest('hex')}`);
    expect(JSON.parse(req!.body)).toEqual({
      type: 'workflow.webhook',
      workflow: { id: workflow.id, name: 'Hooks' },
      execution: { id: started.id, stepId, entry: 1 },
      contact: { id: contactId, email: 'ann@example.test', subscribed: true, data: { plan: 'pro' } },
      context: { coupon: 'A1' },
    });
  });

  it('sends a configured body with the configured method, and none for GET', async () => {
    const put = `/put-${randomBytes(3).toString('hex')}`;
    const get = `/get-${randomBytes(3).toString('hex')}`;
    const a = await webhookExecution({ url: server.url(put), method: 'PUT', body: { hello: 'world' } });
    const b = await webhookExecution({ url: server.url(`${get}?q=1`), method: 'GET' });
    await executionIn(a.t, a.workflow.id, a.started.id, ['COMPLETED']);
    await executionIn(b.t, b.workflow.id, b.started.id, ['COMPLETED']);
    expect(server.to(put).map((r) => [r.method, r.body])).toEqual([['PUT', '{"hello":"world"}']]);
    const [fetched] = server.requests.filter((r) => r.path === `${get}?q=1`);
    expect([fetched!.method, fetched!.body, fetched!.headers['content-type']]).toEqual(['GET', '', undefined]);
  });

  it('retries 5xx answers with backoff under the same delivery id, then completes', async () => {
    const path = `/flaky-${randomBytes(3).toString('hex')}`;
    server.on(path, (_req, res) => (server.to(path).length <= 2 ? json(res, 503, { busy: true }) : json(res, 200, { ok: 1 })));
    const { t, workflow, started } = await webhookExecution({ url: server.url(path) });
    const done = await executionIn(t, workflow.id, started.id, ['COMPLETED'], 30_000);
    expect(history(done)[0]!.output).toMatchObject({ status: 200, body: { ok: 1 } });
    const attempts = server.to(path);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((r) => r.headers['x-postwire-delivery'])).size).toBe(1);
  });

  it('fails at once on a 4xx, with the answer in the error', async () => {
    const path = `/gone-${randomBytes(3).toString('hex')}`;
    server.on(path, (_req, res) => json(res, 410, { error: 'unknown hook' }));
    const { t, workflow, started } = await webhookExecution({ url: server.url(path) });
    const failed = await executionIn(t, workflow.id, started.id, ['FAILED']);
    expect(failed.error).toBe('The webhook answered 410: {"error":"unknown hook"}');
    expect(history(failed)[0]).toMatchObject({ status: 'FAILED', error: failed.error });
    expect(server.to(path)).toHaveLength(1);
  });

  it('follows redirects, checking each hop', async () => {
    const from = `/old-${randomBytes(3).toString('hex')}`;
    const to = `/new-${randomBytes(3).toString('hex')}`;
    server.on(from, (_req, res) => {
      res.writeHead(307, { location: to });
      res.end();
    });
    const { t, workflow, started } = await webhookExecution({ url: server.url(from), body: { n: 1 } });
    const done = await executionIn(t, workflow.id, started.id, ['COMPLETED']);
    expect(history(done)[0]!.output).toMatchObject({ status: 200, url: server.url(to) });
    expect(server.to(to).map((r) => [r.method, r.body])).toEqual([['POST', '{"n":1}']]);
  });
});

describe('WEBHOOK address policy (WEBHOOK_ALLOW_PRIVATE off)', () => {
  const deployment = addressPolicy(false);
  const send = (url: string, policy: AddressPolicy = deployment, timeoutMs = 5_000) =>
    sendWebhook({ url, method: 'POST', headers: {}, body: '{}' }, { dns: stack.deps.dns, policy, timeoutMs });
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (err: unknown) => err,
    );

  it.each([
    'http://127.0.0.1:{port}/x',
    'http://[::1]:{port}/x',
    'http://[::ffff:127.0.0.1]:{port}/x',
    'http://0.0.0.0:{port}/x',
    'http://10.0.0.1/x',
    'http://172.16.5.4/x',
    'http://192.168.1.1/x',
    'http://100.64.0.1/x',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/x',
    'http://[fe80::1]/x',
    'http://localhost:{port}/x',
    'http://metadata.google.internal/computeMetadata/v1/',
  ])('refuses %s before connecting', async (template) => {
    const before = server.requests.length;
    const err = await refusal(send(template.replace('{port}', String(server.port))));
    expect(err).toBeInstanceOf(WebhookRefused);
    expect(server.requests.length).toBe(before);
  });

  it('refuses a name whose addresses include a private one, resolved through the configured DNS servers', async () => {
    stack.dns.set('inside.example.test', [
      { type: 'A', address: '93.184.216.34' },
      { type: 'A', address: '127.0.0.1' },
    ]);
    stack.dns.set('public.example.test', [{ type: 'A', address: '93.184.216.34' }]);
    expect(await refusal(send(`http://inside.example.test:${server.port}/x`))).toBeInstanceOf(WebhookRefused);
    expect(await resolveTarget(stack.deps.dns, 'public.example.test', deployment)).toEqual({ address: '93.184.216.34', family: 4 });
    expect(await refusal(resolveTarget(stack.deps.dns, 'nowhere.example.test', deployment))).toBeInstanceOf(WebhookRefused);
  });

  it('checks every redirect hop: a permitted receiver cannot bounce the request inward', async () => {
    // Only this test server's address is let through, as if it were a public host; everything else follows the deployment's rules.
    const onlyTheServer: AddressPolicy = { allows: (a) => a === '127.0.0.1' || deployment.allows(a), allowsLocalNames: false };
    stack.dns.set('metadata-alias.example.test', [{ type: 'A', address: '169.254.169.254' }]);
    for (const target of [
      'http://10.1.2.3/admin',
      'http://metadata-alias.example.test/latest/',
      'http://localhost/x',
      'file:///etc/passwd',
    ]) {
      const path = `/bounce-${randomBytes(3).toString('hex')}`;
      server.on(path, (_req, res) => {
        res.writeHead(302, { location: target });
        res.end();
      });
      const err = await refusal(send(server.url(path), onlyTheServer));
      expect([target, err instanceof WebhookRefused]).toEqual([target, true]);
      expect(server.to(path)).toHaveLength(1);
    }
  });

  it('gives up after its timeout with a retryable error, and reports 4xx as rejected', async () => {
    const slow = `/slow-${randomBytes(3).toString('hex')}`;
    server.on(slow, () => undefined);
    const allowAll = addressPolicy(true);
    const err = await refusal(send(server.url(slow), allowAll, 300));
    expect(err).toBeInstanceOf(WebhookTimeout);
    expect(err).toMatchObject({ message: 'The webhook did not answer within 300 ms' });
    const teapot = `/teapot-${randomBytes(3).toString('hex')}`;
    server.on(teapot, (_req, res) => json(res, 418, { short: 'stout' }));
    expect(await refusal(send(server.url(teapot), allowAll))).toMatchObject({ status: 418, body: { short: 'stout' } });
  });

  it('fails an execution whose webhook points inward, without sending anything', async () => {
    const guarded = await startStack({ temporal: gatewayFor(engine.env!, `automation-guarded-${randomBytes(4).toString('hex')}`) });
    const worker = await startWorker(guarded.deps, engine.env!.nativeConnection);
    try {
      const t = await tenant(guarded);
      const contactId = await addContact(t, 'ann@example.test');
      const path = `/private-${randomBytes(3).toString('hex')}`;
      const { workflow } = await linearWorkflow(t, [['WEBHOOK', { url: server.url(path) }]]);
      const started = await startExecution(t, workflow.id, { contactId });
      const failed = await executionIn(t, workflow.id, started.id, ['FAILED']);
      expect(failed.error).toBe('Webhook refused: 127.0.0.1 is a private, loopback, link-local or reserved address');
      expect(server.to(path)).toEqual([]);
    } finally {
      await worker.stop();
      await guarded.close();
    }
  });
});
