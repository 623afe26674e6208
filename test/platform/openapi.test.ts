import { compileErrors, validate } from '@readme/openapi-parser';
import type Router from '@koa/router';
import fs from 'node:fs';
import path from 'node:path';
import { startStack, type TestStack } from '../helpers/stack';
import { spawnSync } from 'node:child_process';
import os from 'node:os';

interface Operation {
  parameters: Array<{ name: string; in: string; schema?: unknown }>;
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

let stack: TestStack;
let doc: Document;
beforeAll(async () => {
  stack = await startStack();
  doc = (await stack.http().get('/openapi.json').expect(200).expect('Content-Type', /json/)).body;
});
afterAll(() => stack.close());

/** Every method and path the app's router actually serves, read from the mounted @koa/router. */
function mountedRoutes(): Array<{ method: string; path: string }> {
  const routers = stack.app.koa.middleware
    .map((fn) => (fn as { router?: Router }).router)
    .filter((router): router is Router => router !== undefined);
  expect(routers).toHaveLength(1);
  return routers[0]!.stack.flatMap((layer) =>
    layer.methods
      .filter((m) => m !== 'HEAD')
      .map((m) => ({ method: m.toLowerCase(), path: String(layer.path).replace(/:(\w+)/g, '{$1}') })),
  );
}

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method, path, op })));

describe('GET /openapi.json', () => {
  it('is the document committed as docs/openapi.json', () => {
    const committed: unknown = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'openapi.json'), 'utf8'));
    const drift =
      JSON.stringify(committed) === JSON.stringify(doc)
        ? 'none'
        : 'docs/openapi.json differs from the document the API serves: run `npm run openapi` and commit the file';
    expect(drift).toBe('none');
  });

  it("is what the dashboard's committed API types were generated from", () => {
    const root = path.join(__dirname, '..', '..');
    const served = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'postwire-openapi-')), 'openapi.json');
    fs.writeFileSync(served, JSON.stringify(doc));
    const generated = spawnSync(path.join(root, 'node_modules', '.bin', 'tsx'), ['scripts/lib/dashboard-types.ts', served], {
      cwd: root,
      encoding: 'utf8',
    });
    fs.rmSync(path.dirname(served), { recursive: true, force: true });
    expect(generated.stderr).toBe('');
    const drift =
      fs.readFileSync(path.join(root, 'src', 'dashboard', 'api', 'schema.d.ts'), 'utf8') === generated.stdout
        ? 'none'
        : 'src/dashboard/api/schema.d.ts differs from the types of the served document: run `npm run openapi` and commit it';
    expect(drift).toBe('none');
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.warnings).toEqual([]);
  });

  it('documents every mounted route with its method, and nothing that is not mounted', () => {
    const mounted = mountedRoutes()
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    const documented = operations()
      .map((o) => `${o.method} ${o.path}`)
      .sort();
    expect(mounted.length).toBeGreaterThan(0);
    expect(documented).toEqual(mounted);
  });

  it('gives every path parameter, request body and response body a schema', () => {
    for (const { method, path, op } of operations()) {
      const where = `${method} ${path}`;
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = op.parameters.filter((p) => p.in === 'path');
      expect([where, declared.map((p) => p.name).sort()]).toEqual([where, templated]);
      for (const param of op.parameters) expect([where, param.name, param.schema]).toEqual([where, param.name, expect.any(Object)]);

      for (const media of Object.values(op.requestBody?.content ?? {})) expect([where, media.schema]).toEqual([where, expect.any(Object)]);

      // The MCP transport answers a message holding only notifications 202 with no body, as the protocol says.
      const empty = (s: string) => s === '204' || (where === 'post /mcp' && s === '202');
      for (const status of Object.keys(op.responses).filter((s) => !empty(s))) {
        const content = Object.values(op.responses[status]!.content ?? {});
        expect([where, status, content.length > 0 && content.every((m) => typeof m.schema === 'object')]).toEqual([where, status, true]);
      }
    }
  });

  it('describes the error envelope for failures the pipeline adds', () => {
    const op = doc.paths['/users/@me']!.get!;
    expect(op.responses['401']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Error' });
    const signup = doc.paths['/auth/signup']!.post!;
    expect(Object.keys(signup.responses)).toEqual(expect.arrayContaining(['400', '403', '409', '413', '422']));
  });
});
