import { readFileSync, readdirSync } from 'node:fs';

/**
 * CPU time spent by processes, from /proc (Linux): a figure that other load on the machine does not skew,
 * unlike requests per second.
 */

const TICKS_PER_SECOND = 100;

interface ProcStat {
  pid: number;
  ppid: number;
  cpuMs: number;
}

function stat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces; the fields after its closing parenthesis do not.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const [utime, stime] = [Number(fields[11]), Number(fields[12])];
    return { pid, ppid: Number(fields[1]), cpuMs: ((utime + stime) * 1000) / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

const allStats = () =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => stat(Number(name)))
    .filter((s): s is ProcStat => s !== null);

/** CPU milliseconds of a process and all its descendants so far. */
export function treeCpuMs(rootPid: number): number {
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
  return stats.filter((s) => inTree.has(s.pid)).reduce((sum, s) => sum + s.cpuMs, 0);
}

/** CPU milliseconds so far of each of these processes (absent ones count 0). */
export function cpuMsOf(pids: number[]): Map<number, number> {
  return new Map(pids.map((pid) => [pid, stat(pid)?.cpuMs ?? 0]));
}
