import fs from 'node:fs';
import path from 'node:path';
import { declaredRoutes } from '../../src/app/declared-routes';
import { operationsOf } from '../../src/modules/agent/catalog';
import { commandsOf } from '../../src/modules/agent/cli/commands';
import { cliReference } from '../../src/modules/agent/cli/help';
import { root } from './paths';

export const cliDocsFile = path.join(root, 'docs', 'cli.md');
const MARKER = '## Commands';

/** docs/cli.md with its generated reference: the written part above `## Commands` kept, the rest generated from the routes. */
export function cliDocs(): string {
  const written = fs.readFileSync(cliDocsFile, 'utf8');
  const at = written.indexOf(`\n${MARKER}\n`);
  const head = at < 0 ? `${written.trimEnd()}\n` : written.slice(0, at + 1);
  return `${head}${cliReference(commandsOf(operationsOf(declaredRoutes())))}\n`;
}
