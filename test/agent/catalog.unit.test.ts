import { z } from 'zod';
import { declaredRoutes } from '../../src/app/declared-routes';
import { defineRoute, type RouteDef } from '../../src/http/route';
import { isEligible, operationsOf } from '../../src/modules/agent/catalog';
import { commandsOf, findCommand } from '../../src/modules/agent/cli/commands';
import { InputError, requestOf } from '../../src/modules/agent/request';

const route = (def: Partial<RouteDef> & Pick<RouteDef, 'method' | 'path'>): RouteDef =>
  defineRoute({
    tag: 'Things',
    summary: 'A thing',
    auth: 'secret',
    responses: { 200: { description: 'ok' } },
    handler: () => undefined,
    ...def,
  } as never);

const BASE = 'http://api.test/';

describe('operations, from the route list', () => {
  const routes = declaredRoutes();
  const operations = operationsOf(routes);

  it('are the secret-key routes, one each, with unique names', () => {
    expect(operations).toHaveLength(routes.filter(isEligible).length);
    expect(new Set(operations.map((o) => o.name)).size).toBe(operations.length);
    const paths = operations.map((o) => o.path);
    for (const left of [
      '/mcp',
      '/auth/login',
      '/v1/track',
      '/t/o/{emailId}',
      '/webhooks/sns',
      '/app/assets/{file}',
      '/users/@me/projects/{id}/reset',
      '/openapi.json',
    ]) {
      expect(paths).not.toContain(left);
    }
  });

  it('take a new route with no code of their own: its name, hints and input come from its declaration', () => {
    const things = [
      route({ method: 'get', path: '/things', query: z.object({ limit: z.coerce.number().int().optional() }) }),
      route({ method: 'post', path: '/things', body: z.object({ name: z.string().min(1) }), idempotent: true }),
      route({ method: 'get', path: '/things/{id}', params: z.object({ id: z.uuid() }) }),
      route({ method: 'delete', path: '/things/{id}', params: z.object({ id: z.uuid() }) }),
      route({ method: 'post', path: '/things/{id}/reset', params: z.object({ id: z.uuid() }) }),
      route({ method: 'post', path: '/things/{id}/rename', params: z.object({ id: z.uuid() }), body: z.object({ id: z.string() }) }),
      route({ method: 'get', path: '/secret-page', auth: 'session' }),
    ];
    const ops = operationsOf(things);
    expect(ops.map((o) => [o.name, o.readOnly, o.destructive, o.body])).toEqual([
      ['things_list', true, false, 'none'],
      ['things_create', false, false, 'flat'],
      ['things_get', true, false, 'none'],
      ['things_delete', false, true, 'none'],
      ['things_reset', false, true, 'none'],
      // The body names a field like a path parameter: it goes under `body`.
      ['things_rename', false, false, 'nested'],
    ]);
    expect(ops[1]!.inputSchema).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string', minLength: 1 }, idempotencyKey: { type: 'string' } },
      required: ['name'],
    });
    expect(ops[2]!.inputSchema).toMatchObject({ properties: { id: { type: 'string', format: 'uuid' } }, required: ['id'] });
  });

  it('turn arguments into the request: path, query, body, Idempotency-Key; a missing path parameter is refused before', async () => {
    const byName = (name: string) => operations.find((o) => o.name === name)!;
    const list = await requestOf(byName('contacts_list'), { limit: 5, search: 'ann' }, BASE);
    expect([list.method, list.url]).toEqual(['GET', `${BASE}contacts?limit=5&search=ann`]);
    const send = await requestOf(byName('emails_send'), { to: 'a@example.test', subject: 'Hi', idempotencyKey: 'k1' }, BASE, {
      authorization: 'Bearer sk_x',
    });
    expect([send.method, send.url, send.headers.get('idempotency-key'), send.headers.get('authorization')]).toEqual([
      'POST',
      `${BASE}v1/send`,
      'k1',
      'Bearer sk_x',
    ]);
    expect(await send.json()).toEqual({ to: 'a@example.test', subject: 'Hi' });
    const step = await requestOf(byName('workflows_steps_create'), { id: 'w1', body: { type: 'EXIT' } }, BASE);
    expect([step.url, await step.json()]).toEqual([`${BASE}workflows/w1/steps`, { type: 'EXIT' }]);
    await expect(requestOf(byName('contacts_get'), {}, BASE)).rejects.toBeInstanceOf(InputError);
  });

  it('fill a multipart file from text or a data: URL', async () => {
    const upload = operations.find((o) => o.name === 'uploads_image')!;
    const request = await requestOf(upload, { file: `data:image/png;base64,${Buffer.from('png bytes').toString('base64')}` }, BASE);
    const file = (await request.formData()).get('file') as File;
    expect([file.type, await file.text()]).toEqual(['image/png', 'png bytes']);
  });

  it('are the CLI commands, found by their words, hyphens or the synonym show', () => {
    const commands = commandsOf(operations);
    expect(findCommand(commands, ['executions', 'show', 'e1'])).toMatchObject({
      command: { op: { name: 'executions_get' } },
      rest: ['e1'],
    });
    expect(findCommand(commands, ['executions', 'history', 'e1'])).toMatchObject({
      command: { op: { name: 'executions_history' } },
      rest: ['e1'],
    });
    expect(findCommand(commands, ['contacts', 'fields-list'])).toMatchObject({
      command: { op: { name: 'contacts_fields_list' } },
      rest: [],
    });
    expect(findCommand(commands, ['send'])).toMatchObject({ command: { op: { name: 'emails_send' }, aliases: { html: 'body' } } });
    expect(findCommand(commands, ['nope'])).toBeUndefined();
  });
});
