import { Ajv2020 } from 'ajv/dist/2020';
import { startStack, type TestStack } from '../helpers/stack';
import { senderTenant, tenant } from '../helpers/tenants';
import { recipient } from '../emails/helpers';
import { mcpClient, structured } from './helpers';
import { declaredRoutes } from '../../src/app/declared-routes';
import { isEligible } from '../../src/modules/agent/catalog';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ pump: true, terminateWorkflows: true });
});
afterAll(() => stack?.close());

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

describe('POST /mcp with the official SDK client', () => {
  it('lists one tool per eligible route, each input a valid JSON Schema, and the composed tools', async () => {
    const { project } = await tenant(stack);
    const client = await mcpClient(stack, bearer(project.secret));
    const { tools } = await client.listTools();
    const eligible = declaredRoutes().filter(isEligible);
    const composed = ['explain_email', 'automation_for_contact', 'execution_timeline'];
    expect(tools).toHaveLength(eligible.length + composed.length);
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['contacts_list', 'emails_send', 'campaigns_send', 'executions_get', ...composed]),
    );
    // Strict: an unknown keyword or a malformed schema fails; formats are names here, not checked.
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, validateFormats: false });
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
    }
    await client.close();
  });

  it('marks read tools read-only and destructive ones destructive', async () => {
    const { project } = await tenant(stack);
    const client = await mcpClient(stack, bearer(project.secret));
    const { tools } = await client.listTools();
    const hints = (name: string) => tools.find((t) => t.name === name)?.annotations;
    expect(hints('contacts_list')).toMatchObject({ readOnlyHint: true });
    expect(hints('workflows_simulate')).toMatchObject({ readOnlyHint: true });
    for (const name of ['contacts_delete', 'workflows_executions_cancel_all', 'webhook_endpoints_rotate_secret', 'campaigns_cancel']) {
      expect(hints(name)).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    }
    expect(hints('contacts_create')).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    await client.close();
  });

  it('calls a read tool and a write tool through the pipeline: the contact is created, then listed', async () => {
    const { project } = await tenant(stack);
    const client = await mcpClient(stack, bearer(project.secret));
    const email = recipient();
    const created = structured(await client.callTool({ name: 'contacts_create', arguments: { email, data: { plan: 'pro' } } }));
    expect(created).toMatchObject({ email, data: { plan: 'pro' } });
    const listed = structured<{ data: Array<{ email: string }> }>(
      await client.callTool({ name: 'contacts_list', arguments: { search: email } }),
    );
    expect(listed.data.map((c) => c.email)).toEqual([email]);
    await client.close();
  });

  it('sends an email with emails_send: it reaches the SMTP sink', async () => {
    const { project, from } = await senderTenant(stack);
    const client = await mcpClient(stack, bearer(project.secret));
    const to = recipient();
    const sent = structured<{ data: { emails: Array<{ email: string }> } }>(
      await client.callTool({
        name: 'emails_send',
        arguments: { to, from, subject: 'From an assistant', body: '<p>Hello</p>', idempotencyKey: `k-${to}` },
      }),
    );
    expect(sent.data.emails).toHaveLength(1);
    const mail = await stack.smtp.waitFor((m) => m.to.includes(to));
    expect(mail.raw).toContain('From an assistant');
    // The same key again: the pipeline's idempotency answers, as over HTTP.
    const again = await client.callTool({
      name: 'emails_send',
      arguments: { to, from, subject: 'From an assistant', body: '<p>Hello</p>', idempotencyKey: `k-${to}` },
    });
    expect(again.isError).toBe(true);
    expect(again.structuredContent).toMatchObject({ error: { code: 'IDEMPOTENCY_KEY_REUSED', statusCode: 409 } });
    await client.close();
  });

  it("answers bad input with the API's error, as a tool error with its suggestion", async () => {
    const { project, c } = await tenant(stack);
    const client = await mcpClient(stack, bearer(project.secret));
    const body = { name: 'Welcome', triggerType: 'EVENT' };
    const overHttp = (await c.post('/workflows').send(body)).body.error;
    const bad = await client.callTool({ name: 'workflows_create', arguments: body });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toEqual({ error: { ...overHttp, requestId: expect.any(String) } });
    expect(overHttp).toMatchObject({
      code: 'VALIDATION_ERROR',
      statusCode: 422,
      errors: [expect.objectContaining({ field: 'eventName' })],
    });
    expect((bad.content as Array<{ text: string }>)[0]!.text).toMatch(/^VALIDATION_ERROR \(422\): .*\n- eventName: /);
    const missing = await client.callTool({ name: 'contacts_get', arguments: { id: '00000000-0000-4000-8000-000000000000' } });
    expect(missing).toMatchObject({ isError: true, structuredContent: { error: { statusCode: 404 } } });
    const noPath = await client.callTool({ name: 'contacts_get', arguments: {} });
    expect(noPath).toMatchObject({ isError: true, structuredContent: { error: { code: 'VALIDATION_ERROR', errors: [{ field: 'id' }] } } });
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
    await client.close();
  });

  it('refuses the public key, another project key, a session cookie without a key, and no key', async () => {
    const { project, user } = await tenant(stack);
    await expect(mcpClient(stack, bearer(project.public))).rejects.toThrow(/401/);
    await expect(mcpClient(stack, {})).rejects.toThrow(/401/);
    await expect(mcpClient(stack, { Cookie: user.cookie, 'X-Project-Id': project.id })).rejects.toThrow(/401/);
    await expect(mcpClient(stack, bearer('sk_not_a_key'))).rejects.toThrow(/401/);
  });

  it("reaches only the key's project: another project's contact is not found", async () => {
    const a = await tenant(stack);
    const b = await tenant(stack);
    const theirs = (await b.c.post('/contacts').send({ email: recipient() }).expect(201)).body;
    const client = await mcpClient(stack, bearer(a.project.secret));
    const res = await client.callTool({ name: 'contacts_get', arguments: { id: theirs.id } });
    expect(res).toMatchObject({ isError: true, structuredContent: { error: { statusCode: 404 } } });
    await client.close();
  });

  it('reads the docs and the OpenAPI document as resources', async () => {
    const { project } = await tenant(stack);
    const client = await mcpClient(stack, bearer(project.secret));
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining([
        'postwire://openapi.json',
        'postwire://docs/mcp.md',
        'postwire://docs/architecture.md',
        'postwire://docs/contributors/README.md',
        'postwire://docs/contributors/sending.md',
      ]),
    );
    const openapi = await client.readResource({ uri: 'postwire://openapi.json' });
    expect(JSON.parse((openapi.contents[0] as { text: string }).text)).toMatchObject({ openapi: '3.1.0' });
    const page = await client.readResource({ uri: 'postwire://docs/architecture.md' });
    expect((page.contents[0] as { text: string }).text).toMatch(/^# Architecture/);
    const contributors = await client.readResource({ uri: 'postwire://docs/contributors/sending.md' });
    expect((contributors.contents[0] as { text: string }).text).toMatch(/^# Sending: .*for contributors/);
    await expect(client.readResource({ uri: 'postwire://docs/../package.json' })).rejects.toThrow(/Unknown resource/);
    await expect(client.readResource({ uri: 'postwire://docs/contributors/../../package.json' })).rejects.toThrow(/Unknown resource/);
    await client.close();
  });

  it('answers what is not an MCP client in the error envelope: Accept, a message that is not JSON-RPC, GET, a notification', async () => {
    const { project } = await tenant(stack);
    const post = () => stack.http().post('/mcp').set('Authorization', `Bearer ${project.secret}`);
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const notAccepted = await post().set('Accept', 'application/json').send(ping).expect(406);
    expect(notAccepted.body.error).toMatchObject({ code: 'NOT_ACCEPTABLE', suggestion: expect.stringContaining('text/event-stream') });
    const accept = 'application/json, text/event-stream';
    const invalid = await post().set('Accept', accept).send({ jsonrpc: '1.0', method: 'ping' }).expect(422);
    expect(invalid.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((await post().set('Accept', accept).send(ping).expect(200)).body).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    await post().set('Accept', accept).send({ jsonrpc: '2.0', method: 'notifications/initialized' }).expect(202);
    const get = await stack.http().get('/mcp').set('Authorization', `Bearer ${project.secret}`).expect(405);
    expect(get.body.error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('answers every tool called with no arguments, and with every argument of the wrong type, without a 5xx or a crash', async () => {
    const { project } = await tenant(stack);
    const client = await mcpClient(stack, bearer(project.secret));
    const { tools } = await client.listTools();
    const failures: string[] = [];
    for (const tool of tools) {
      const properties = Object.keys((tool.inputSchema.properties ?? {}) as object);
      for (const args of [{}, Object.fromEntries(properties.map((p) => [p, { wrong: [1, 'two'] }]))]) {
        const res = await client.callTool({ name: tool.name, arguments: args });
        const error = (res.structuredContent as { error?: { statusCode: number; code: string } } | undefined)?.error;
        if (res.isError && (!error || error.statusCode >= 500))
          failures.push(`${tool.name} ${JSON.stringify(args)}: ${JSON.stringify(res.content)}`);
      }
    }
    expect(failures).toEqual([]);
    await client.close();
  });
});
