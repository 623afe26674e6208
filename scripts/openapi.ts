/**
 * `npm run openapi`: writes the document the API serves at /openapi.json, under the default settings, to
 * docs/openapi.json, so that the repository carries its own HTTP contract. test/platform/openapi.test.ts
 * fails when the committed file and the served document differ. It also writes the dashboard's API types
 * generated from that document (src/dashboard/api/schema.d.ts), which the same test checks.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { allRoutes } from '../src/app/routes';
import { loadConfig } from '../src/config';
import type { Deps } from '../src/deps';
import { root } from './lib/paths';
import { dashboardTypesFile, dashboardTypesOf } from './lib/dashboard-types';

const file = path.join(root, 'docs', 'openapi.json');

// Only the settings the document depends on matter, at their defaults; the required ones get throwaway values.
const config = loadConfig({
  DATABASE_URL: 'postgres://localhost/postwire',
  JWT_SECRET: randomBytes(32).toString('hex'),
  ENCRYPTION_KEY: randomBytes(32).toString('hex'),
});

/** A dependency that routes may hold while they are declared, and that only a handler would use. */
const unused = (name: string): unknown =>
  new Proxy(
    {},
    {
      get: () => {
        throw new Error(`building the OpenAPI document used deps.${name}`);
      },
    },
  );
const deps = {
  config,
  ...Object.fromEntries(['logger', 'orm', 'temporal', 'mailer', 'dns', 'sessions'].map((k) => [k, unused(k)])),
} as Deps;

const route = allRoutes(deps).find((r) => r.method === 'get' && r.path === '/openapi.json');
if (!route) throw new Error('no GET /openapi.json route');
const ctx: { body?: unknown } = {};
void route.handler(ctx as never, {} as never);
fs.writeFileSync(file, `${JSON.stringify(ctx.body, null, 2)}\n`);
console.log(`wrote ${path.relative(root, file)}`);
void dashboardTypesOf(ctx.body).then((types) => {
  fs.writeFileSync(dashboardTypesFile, types);
  console.log(`wrote ${path.relative(root, dashboardTypesFile)}`);
});
