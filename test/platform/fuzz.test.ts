import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { startStack, type TestStack } from '../helpers/stack';
import { signupUser } from '../helpers/fixtures';
import { newTenant } from '../helpers/tenants';
import { InFlight, slowest, whereItIs } from './fuzz/progress';

const ADMIN_TOKEN = randomBytes(24).toString('hex');

/**
 * Schema-driven fuzzing: schemathesis (installed by scripts/ensure-deps.sh) generates requests for every
 * operation of /openapi.json, valid and invalid, and checks each answer against the document: no 5xx, a
 * documented status, content type, headers and body. `npm test` runs the quick budget below; `npm run fuzz`
 * sets FUZZ_PROFILE=deep for a longer run. See docs/contributors/openapi.md "Fuzzing".
 */
/**
 * The quick run has no time budget: given one, schemathesis repeats its fuzzing phase until the budget is spent,
 * and a budget that runs out first leaves the operations after it untested. Without one, every operation gets
 * its examples, its coverage cases (boundaries, wrong types, missing fields) and 2 fuzzed cases, once.
 */
const PROFILES = {
  quick: { examples: 2, seconds: null, phases: 'examples,coverage,fuzzing', seed: '1' },
  deep: { examples: 100, seconds: Number(process.env.FUZZ_SECONDS ?? 600), phases: 'examples,coverage,fuzzing,stateful', seed: undefined },
} as const;
const profileName = process.env.FUZZ_PROFILE === 'deep' ? 'deep' : 'quick';
const profile = PROFILES[profileName];
/** The quick run is the same every time (a fixed seed); the deep one explores anew unless FUZZ_SEED is set. */
const seed = process.env.FUZZ_SEED ?? profile.seed;

/**
 * How long schemathesis may run: the deep run's budget and a minute to finish its last cases; the quick run
 * took 202-245 s for 187 operations in CI's full runs.
 */
const RUN_SECONDS = (profile.seconds ?? 840) + 60;

/** The database sessions in a transaction or a query, for a run that stalled. */
const BUSY_SESSIONS = `select pid, state, wait_event_type, wait_event, (now() - xact_start)::text as age, left(query, 200) as query
  from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle' order by xact_start`;

const SCHEMATHESIS = path.resolve(__dirname, '..', '..', '.tools', 'venv', 'bin', 'schemathesis');

/** Operations left out: logging out would end the session the run authenticates with. */
const EXCLUDED = ['/auth/logout'];
/** FUZZ_PATHS (a regular expression over paths) narrows a run to some operations, e.g. `^/(topics|forms|f/)` for an area's. */
const only = process.env.FUZZ_PATHS ? ['--include-path-regex', process.env.FUZZ_PATHS] : [];

/** The parts of schemathesis's JSON run report (`--report json`) that the test reads. */
interface Report {
  running_time: number;
  operations: { total: number; tested: number };
  test_cases: { generated: number };
  failures: Array<{ code: string; title: string; count: number; operations: string[] }>;
  errors: Array<{ title: string; count: number }>;
}

interface RunResult {
  code: number | null;
  output: string;
  /** What the run was doing when it was stopped for running too long. */
  stall?: string;
}

/**
 * Runs schemathesis; one that has not ended `seconds` after it started is stopped, and the result says what
 * it was doing then (progress.ts): a stalled request names itself instead of running into jest's timeout.
 */
function run(args: string[], cwd: string, seconds: number, stalled: () => Promise<string>): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, NO_COLOR: '1', SCHEMATHESIS_TELEMETRY: 'false', PYTHONPATH: path.join(__dirname, 'fuzz') };
    const child = spawn(SCHEMATHESIS, args, { cwd, env });
    let output = '';
    let stall: string | undefined;
    const timer = setTimeout(() => {
      void stalled()
        .catch((err: Error) => `schemathesis ran past ${seconds} s (what it was doing could not be read: ${err.message})`)
        .then((what) => {
          stall = what;
          child.kill('SIGKILL');
        });
    }, seconds * 1000);
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, stall });
    });
  });
}

let stack: TestStack;
let inFlight: InFlight;
let dir: string;
beforeAll(async () => {
  // Thousands of requests a minute from one project: the per-project limit would answer most with 429. The
  // operators' surface is on, so that its operations are fuzzed too. No worker runs the workflows the run
  // starts, so a segment's computation answers its 202 after a second rather than the default ten.
  stack = await startStack({ env: { API_RATE_LIMIT_PER_MINUTE: '0', ADMIN_TOKEN, SEGMENT_COMPUTE_WAIT_SECONDS: '1' } });
  inFlight = new InFlight(stack.server);
  dir = await mkdtemp(path.join(tmpdir(), 'postwire-fuzz-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await stack.close();
});

it(
  `answers every operation of /openapi.json as documented, never with a 5xx (${profileName} budget)`,
  async () => {
    if (!existsSync(SCHEMATHESIS)) throw new Error(`${SCHEMATHESIS} is missing: run bash scripts/ensure-deps.sh`);
    // The run learns identifiers from responses and reuses them: a session of the key's owner would let it
    // rotate that key or reset that project mid-run. The session is another user's, with projects of its own.
    const { project } = await newTenant(stack);
    const user = await signupUser(stack);
    const { port } = stack.server.address() as AddressInfo;
    const cookie = user.cookie.replace(/^postwire_session=/, '');
    await writeFile(
      path.join(dir, 'schemathesis.toml'),
      [
        '[auth.openapi.secretKey]',
        `bearer = "${project.secret}"`,
        '[auth.openapi.publicKey]',
        `bearer = "${project.public}"`,
        '[auth.openapi.sessionCookie]',
        `api_key = "${cookie}"`,
        '[auth.openapi.projectHeader]',
        `api_key = "${project.id}"`,
        '[auth.openapi.adminToken]',
        `bearer = "${ADMIN_TOKEN}"`,
        '',
      ].join('\n'),
    );
    const report = path.join(dir, 'report.json');
    const events = path.join(dir, 'events.ndjson');
    const { code, output, stall } = await run(
      [
        'run',
        `http://127.0.0.1:${port}/openapi.json`,
        // Off: positive_data_acceptance, since rules JSON Schema cannot state (one of contactId and email, a
        // template that exists) refuse schema-valid requests; ensure_resource_availability, since the billing
        // provider endpoints answer a project just created with the contract's 404 BILLING_DISABLED.
        '--checks',
        'all',
        '--exclude-checks',
        'positive_data_acceptance,ensure_resource_availability',
        '--phases',
        profile.phases,
        '--max-examples',
        String(profile.examples),
        ...(profile.seconds === null ? [] : ['--max-time', String(profile.seconds)]),
        '--workers',
        '2',
        ...(seed ? ['--seed', seed] : []),
        '--request-timeout',
        '20',
        '--exclude-path',
        EXCLUDED.join(','),
        ...only,
        '--report',
        'json,ndjson',
        '--report-json-path',
        report,
        '--report-ndjson-path',
        events,
        '--output-truncate',
        'false',
      ],
      dir,
      RUN_SECONDS,
      async () => {
        const sessions = await stack.deps.orm.em.fork().execute<Array<Record<string, unknown>>>(BUSY_SESSIONS);
        return (
          `schemathesis ran past ${RUN_SECONDS} s and was stopped: ${whereItIs(events)}; ` +
          `requests unanswered for over 10 s: ${JSON.stringify(inFlight.olderThan(10_000))}; busy database sessions: ${JSON.stringify(sessions)}`
        );
      },
    );
    // A stopped run wrote no report: what it was doing and the end of its output are the failure.
    if (stall !== undefined) throw new Error(`${stall}\n${output.slice(-4000)}`);
    const summary = existsSync(report) ? (JSON.parse(await readFile(report, 'utf8')) as Report) : undefined;
    const failures = summary?.failures.reduce((n, f) => n + f.count, 0) ?? 0;
    const errors = summary?.errors.reduce((n, e) => n + e.count, 0) ?? 0;
    const untested = only.length === 0 && summary !== undefined && summary.operations.tested !== summary.operations.total - EXCLUDED.length;
    // Schemathesis's own report is printed only when the run went wrong: it closes with a pytest-style line
    // ("=== 3 warnings in 95s ==="), which CI reads as a test run of its own that ran no test.
    const wentWrong = summary === undefined || code !== 0 || failures > 0 || errors > 0 || untested;
    console.log(
      (summary
        ? `fuzz: ${summary.operations.tested}/${summary.operations.total} operations, ${summary.test_cases.generated} test cases ` +
          `in ${summary.running_time.toFixed(0)} s, ${failures} failures, ${errors} errors; slowest: ${slowest(events, 3).join(', ')}`
        : 'fuzz: schemathesis wrote no report') + (wentWrong ? `\n${output}` : ''),
    );
    // Every operation the run was asked for was tested (the total counts the excluded ones).
    if (only.length === 0) expect(summary?.operations.tested).toBe(summary!.operations.total - EXCLUDED.length);
    expect(summary?.failures.map((f) => `${f.code} ${f.title}: ${f.operations.join(', ')}`)).toEqual([]);
    expect(summary?.errors).toEqual([]);
    expect(code).toBe(0);
  },
  // Room to start the stack and report after the run's own bound.
  (RUN_SECONDS + 90) * 1000,
);
