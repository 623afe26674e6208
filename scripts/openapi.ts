/**
 * `npm run openapi`: writes the document the API serves at /openapi.json, under the default settings, to
 * docs/openapi.json, so that the repository carries its own HTTP contract. test/platform/openapi.test.ts
 * fails when the committed file and the served document differ. It also writes the dashboard's API types
 * generated from that document (src/dashboard/api/schema.d.ts), which the same test checks, and the command
 * reference of docs/cli.md (test/agent/cli-docs.unit.test.ts checks it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { declaredRoutes } from '../src/app/declared-routes';
import { root } from './lib/paths';
import { dashboardTypesFile, dashboardTypesOf } from './lib/dashboard-types';
import { cliDocs, cliDocsFile } from './lib/cli-docs';

const file = path.join(root, 'docs', 'openapi.json');

const route = declaredRoutes().find((r) => r.method === 'get' && r.path === '/openapi.json');
if (!route) throw new Error('no GET /openapi.json route');
const ctx: { body?: unknown } = {};
void route.handler(ctx as never, {} as never);
fs.writeFileSync(file, `${JSON.stringify(ctx.body, null, 2)}\n`);
console.log(`wrote ${path.relative(root, file)}`);
fs.writeFileSync(cliDocsFile, cliDocs());
console.log(`wrote ${path.relative(root, cliDocsFile)}`);
void dashboardTypesOf(ctx.body).then((types) => {
  fs.writeFileSync(dashboardTypesFile, types);
  console.log(`wrote ${path.relative(root, dashboardTypesFile)}`);
});
