/** `npx postwire …`: the command-line client (docs/cli.md), its commands generated from this checkout's route list. */
import { readFileSync } from 'node:fs';
import { declaredRoutes } from '../app/declared-routes';
import { operationsOf } from '../modules/agent/catalog';
import { runCli } from '../modules/agent/cli/run';
import { remoteDispatch } from '../modules/agent/request';
import { VERSION } from '../version';

runCli(process.argv.slice(2), operationsOf(declaredRoutes()), {
  env: process.env,
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  dispatch: remoteDispatch,
  readStdin: () => readFileSync(0),
  version: VERSION,
}).then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    process.stderr.write(`postwire: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 3;
  },
);
