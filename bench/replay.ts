/**
 * What a cold replay of a workflow's run costs the worker that takes it over after another died
 * (workflows/run-length.ts): every recorded history of the replay tests (test/<area>/histories/*.json) replayed
 * `BENCH_RUNS` times (default 5) with the current workflow bundle, in this process, no server. Per history: its
 * events, workflow tasks and size, then the median CPU of the process per replay, and the
 * median wall time per replay twice: on an idle main thread, and on one kept busy `BENCH_BUSY_MS` (default 10) out
 * of every turn, as a worker delivering mail keeps it. Then the line through them (least squares): a replay's
 * fixed cost and its cost per workflow task (each a round trip to the main thread), and what that makes of a run
 * of 30 tasks (the bound of workflows/run-length.ts), 220 (the campaign run that timed out) and 400 (the longest
 * campaign run before the bound). Temporal gives that replay one workflow task: 10 s.
 *
 * The calibration is in the same run: the fixed cost of a replay (a replay worker of its own), which no run
 * length changes, against the cost that grows with the tasks.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { loadHistory, type History } from '../test/helpers/histories';
import { workflowBundle } from '../test/helpers/temporal-env';
import { median } from './lib/node-process';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BUSY_MS = Number(process.env.BENCH_BUSY_MS ?? 10);
const TEST_DIR = path.join(__dirname, '..', 'test');

interface Recorded {
  name: string;
  file: string;
  history: History;
  events: number;
  tasks: number;
  kb: number;
}

function recorded(): Recorded[] {
  const found: Recorded[] = [];
  for (const area of readdirSync(TEST_DIR)) {
    const dir = path.join(TEST_DIR, area, 'histories');
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    } catch {
      continue;
    }
    for (const f of files) {
      const file = path.join(dir, f);
      const history = loadHistory(file);
      const events = history.events ?? [];
      found.push({
        name: `${area}/${f}`,
        file,
        history,
        events: events.length,
        tasks: events.filter((e) => e.workflowTaskCompletedEventAttributes).length,
        kb: statSync(file).size / 1024,
      });
    }
  }
  return found.sort((a, b) => a.events - b.events);
}

/** The line a + b·x nearest to the points (least squares): the fixed cost of a replay and its cost per task. */
function fit(points: Array<[number, number]>): { fixed: number; perTask: number } {
  const n = points.length;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const sxy = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  const perTask = sxx === 0 ? 0 : sxy / sxx;
  return { fixed: my - perTask * mx, perTask };
}

/** Keeps the main thread busy BUSY_MS of every turn of its loop until the returned function is called. */
function busyMainThread(): () => void {
  let running = true;
  const hold = () => {
    if (!running) return;
    const until = performance.now() + BUSY_MS;
    while (performance.now() < until);
    setImmediate(hold);
  };
  setImmediate(hold);
  return () => {
    running = false;
  };
}

async function replayOnce(history: History, label: string): Promise<{ cpuMs: number; wallMs: number }> {
  const bundle = await workflowBundle();
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Worker.runReplayHistory({ workflowBundle: bundle }, history, `bench-${label}`);
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - start };
}

async function main() {
  const histories = recorded();
  // The bundle and the SDK's first replay are built once, outside every figure.
  await replayOnce(histories[0]!.history, 'warm-up');
  const rows: string[] = [];
  const points: Array<{ tasks: number; cpuMs: number; busyMs: number }> = [];
  for (const [i, h] of histories.entries()) {
    const idle: Array<{ cpuMs: number; wallMs: number }> = [];
    for (let r = 0; r < RUNS; r++) idle.push(await replayOnce(h.history, `${i}-${r}`));
    const busy: number[] = [];
    const stop = busyMainThread();
    for (let r = 0; r < RUNS; r++) busy.push((await replayOnce(h.history, `${i}-busy-${r}`)).wallMs);
    stop();
    const cpuMs = median(idle.map((x) => x.cpuMs));
    const busyMs = median(busy);
    points.push({ tasks: h.tasks, cpuMs, busyMs });
    rows.push(
      [
        h.name.padEnd(60),
        String(h.events).padStart(6),
        String(h.tasks).padStart(6),
        h.kb.toFixed(0).padStart(6),
        cpuMs.toFixed(1).padStart(9),
        median(idle.map((x) => x.wallMs))
          .toFixed(0)
          .padStart(9),
        busyMs.toFixed(0).padStart(10),
      ].join(' '),
    );
  }
  console.log(`replay of recorded histories, median of ${RUNS}; busy = main thread held ${BUSY_MS} ms of every loop turn`);
  console.log(
    `${'history'.padEnd(60)} ${'events'.padStart(6)} ${'tasks'.padStart(6)} ${'KB'.padStart(6)} ${'CPU ms'.padStart(9)} ${'wall ms'.padStart(9)} ${'busy wall'.padStart(10)}`,
  );
  for (const row of rows) console.log(row);
  const cpu = fit(points.map((p) => [p.tasks, p.cpuMs]));
  const busy = fit(points.map((p) => [p.tasks, p.busyMs]));
  console.log(`least squares over the histories: CPU ${cpu.fixed.toFixed(0)} ms + ${cpu.perTask.toFixed(2)} ms per workflow task`);
  console.log(`busy wall ${busy.fixed.toFixed(0)} ms + ${busy.perTask.toFixed(1)} ms per workflow task`);
  for (const tasks of [30, 220, 400])
    console.log(`  a run of ${tasks} workflow tasks: ${(busy.fixed + busy.perTask * tasks).toFixed(0)} ms busy (the timeout: 10,000 ms)`);
  console.log(`load average at the end: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
