/**
 * `npm start` run beside the developer's own (the proof test, bench/first-email.ts): its data in a folder of
 * its own (POSTWIRE_DATA_DIR), every service on a free port, an environment with only what a developer's shell
 * has, in a process group of its own so that stopping it reaches everything it started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { freeTcpPort } from './net';
import { root } from './paths';
import { portDefaults } from './ports';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freeUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/** Every port variable of ports.ts, each a port nothing listens on now (the development DNS's is UDP). */
export async function freePorts(): Promise<Record<keyof typeof portDefaults, string>> {
  const tcp = (Object.keys(portDefaults) as Array<keyof typeof portDefaults>).filter((name) => name !== 'DEV_DNS_PORT');
  const ports = new Set<number>();
  while (ports.size < tcp.length) ports.add(await freeTcpPort());
  const chosen = Object.fromEntries(tcp.map((name, i) => [name, String([...ports][i])]));
  return { ...chosen, DEV_DNS_PORT: String(await freeUdpPort()) } as Record<keyof typeof portDefaults, string>;
}

/**
 * A developer's shell: none of the caller's own settings (a test run's DATABASE_URL, TEMPORAL_ADDRESS, SMTP_URL,
 * NODE_ENV...), which would make `npm start` use those servers instead of starting its own.
 */
function developerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'TERM', 'TMPDIR', 'SHELL'];
  return { ...Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]])), ...extra };
}

const groupAlive = (pgid: number) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

export interface IsolatedStart {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Its "Postwire is running" block, once printed; rejects with its output if it exits or takes longer. */
  printed(limitMs: number): Promise<string>;
  /** SIGTERM to its process group (Ctrl-C reaches all of it the same way); waits until all of it is gone. */
  stop(): Promise<void>;
}

export function startIsolated(env: Record<string, string>): IsolatedStart {
  const child = spawn('npm', ['start'], { cwd: root, detached: true, env: developerEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    child,
    output: () => output,
    async printed(limitMs) {
      const deadline = Date.now() + limitMs;
      for (;;) {
        const block = /Postwire is running[\s\S]*Press Ctrl-C to stop\./.exec(output)?.[0];
        if (block) return block;
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`);
        if (Date.now() > deadline) throw new Error(`npm start printed no "Postwire is running" within ${limitMs / 1000} s:\n${output}`);
        await sleep(100);
      }
    },
    async stop() {
      const pgid = child.pid!;
      if (groupAlive(pgid)) process.kill(-pgid, 'SIGTERM');
      const deadline = Date.now() + 60_000;
      while (groupAlive(pgid) && Date.now() < deadline) await sleep(100);
      if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
      while (groupAlive(pgid)) await sleep(100);
    },
  };
}

/** A value of the printed block (`Secret key`, `API`, `Mail capture`, ...). */
export function printedField(block: string, label: string): string {
  const value = new RegExp(`^\\s*${label}\\s+(\\S+)`, 'm').exec(block)?.[1];
  if (!value) throw new Error(`npm start printed no ${label}:\n${block}`);
  return value;
}

/** The printed curl commands, by what they call: `send` (/v1/send), `track` (/v1/track), `activity`. */
export function printedCurls(block: string): { send: string; track: string; activity: string } {
  const curls = block
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('curl '));
  const find = (route: string) => {
    const found = curls.find((c) => c.includes(route));
    if (!found) throw new Error(`npm start printed no curl for ${route}:\n${block}`);
    return found;
  };
  return { send: find('/v1/send'), track: find('/v1/track'), activity: find('/activity') };
}
