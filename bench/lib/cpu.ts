import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

/**
 * CPU time spent by processes, from /proc (Linux): a figure that other load on the machine does not skew,
 * unlike requests per second.
 */

const TICKS_PER_SECOND = 100;

interface ProcStat {
  pid: number;
  ppid: number;
  cpuMs: number;
  /** CPU of its children that ended and were waited for (a server's finished connection processes). */
  reapedMs: number;
}

function stat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces; the fields after its closing parenthesis do not.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]));
    const ms = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
    return { pid, ppid: Number(fields[1]), cpuMs: ms(utime! + stime!), reapedMs: ms(cutime! + cstime!) };
  } catch {
    return null;
  }
}

const allStats = () =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => stat(Number(name)))
    .filter((s): s is ProcStat => s !== null);

function tree(rootPid: number): ProcStat[] {
  const stats = allStats();
  const inTree = new Set([rootPid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const s of stats) {
      if (!inTree.has(s.pid) && inTree.has(s.ppid)) {
        inTree.add(s.pid);
        grew = true;
      }
    }
  }
  return stats.filter((s) => inTree.has(s.pid));
}

/** A process and all its descendants. */
export const treePids = (rootPid: number): number[] => tree(rootPid).map((s) => s.pid);

/** CPU milliseconds of a process and all its descendants so far. */
export function treeCpuMs(rootPid: number): number {
  return tree(rootPid).reduce((sum, s) => sum + s.cpuMs, 0);
}

/**
 * CPU milliseconds of a server and everything it ran so far, ended children included: PostgreSQL's backends
 * come and go with their connections, and the postmaster reaps them.
 */
export function serverCpuMs(rootPid: number): number {
  return tree(rootPid).reduce((sum, s) => sum + s.cpuMs + s.reapedMs, 0);
}

/** The process listening on a TCP port of this machine (IPv4 or IPv6), or null. */
export function listenerPid(port: number): number | null {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // Column 1 is local address:port, 3 the state (0A: LISTEN), 9 the socket's inode.
      if (cols[1]?.endsWith(`:${hex}`) && cols[3] === '0A') inodes.add(cols[9]!);
    }
  }
  if (inodes.size === 0) return null;
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${name}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${name}/fd/${fd}`);
        if (target.startsWith('socket:[') && inodes.has(target.slice(8, -1))) return Number(name);
      } catch {
        // The descriptor closed meanwhile.
      }
    }
  }
  return null;
}

/** CPU milliseconds so far of each of these processes (absent ones count 0). */
export function cpuMsOf(pids: number[]): Map<number, number> {
  return new Map(pids.map((pid) => [pid, stat(pid)?.cpuMs ?? 0]));
}

/** CPU milliseconds so far of a process's threads, summed by thread name (MainThread, WorkerThread, V8Worker, tokio-runtime-w, …). */
export function threadCpuMs(pid: number): Map<string, number> {
  const by = new Map<string, number>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return by;
  }
  for (const tid of tids) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const text = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
      by.set(name, (by.get(name) ?? 0) + ms);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return by;
}

/** The same over several processes. */
export const threadsCpuMs = (pids: number[]): Record<string, number> => {
  const sum: Record<string, number> = {};
  for (const pid of pids) for (const [name, ms] of threadCpuMs(pid)) sum[name] = (sum[name] ?? 0) + ms;
  return sum;
};
