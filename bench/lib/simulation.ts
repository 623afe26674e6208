/** What the simulation benchmarks share (bench/simulate.ts, bench/first-simulation.ts): the workflow, its scenario, the API's tree. */
import { execFileSync } from 'node:child_process';

export async function call(url: string, secret: string, method: string, path: string, body?: object): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** The workflow under test, built through the API; returns its id. */
export async function sixSteps(url: string, secret: string): Promise<string> {
  const workflow = await call(url, secret, 'POST', '/workflows', { name: 'Bench onboarding', eventName: 'signup' });
  const id = String(workflow.id);
  const steps: Array<[string, object]> = [
    ['WAIT_FOR_EVENT', { eventName: 'paid', timeout: 3 * 86_400 }],
    ['CONDITION', { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }] }],
    ['UPDATE_CONTACT', { data: { stage: 'customer' } }],
    ['DELAY', { amount: 30, unit: 'days' }],
    ['WEBHOOK', { url: 'https://hooks.example.com/bench' }],
    ['EXIT', { reason: 'done' }],
  ];
  const ids: string[] = [];
  for (const [type, config] of steps) ids.push(String((await call(url, secret, 'POST', `/workflows/${id}/steps`, { type, config })).id));
  for (let i = 1; i < ids.length; i++) {
    await call(url, secret, 'POST', `/workflows/${id}/transitions`, {
      fromStepId: ids[i - 1],
      toStepId: ids[i],
      ...(i === 2 ? { branch: 'yes' } : {}),
    });
  }
  return id;
}

export const SCENARIO = {
  contact: { email: 'ada@example.com', data: { plan: 'pro' } },
  trigger: { event: 'signup', data: { name: 'Ada' } },
  events: [{ after: '2 days', event: 'paid', data: { amount: 30 } }],
};

export interface TreeProcess {
  pid: number;
  mb: number;
  server: boolean;
}

/** The API process and its descendants, with their resident memory; `server` marks its test servers. */
export function apiTree(rootPid: number): TreeProcess[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=,comm='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => {
      const [pid, ppid, rss, comm] = line.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), mb: Number(rss) / 1024, server: (comm ?? '').startsWith('temporal-test') };
    });
  const tree = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows) if (!tree.has(row.pid) && tree.has(row.ppid)) grew = tree.add(row.pid).size > 0;
  }
  return rows.filter((row) => tree.has(row.pid));
}
