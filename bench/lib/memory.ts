import { readFileSync } from 'node:fs';

/** A field of /proc/<pid>/<file> in kB (`VmRSS` of status, `Pss` of smaps_rollup), in MB; 0 once the process is gone. */
function fieldMb(pid: number, file: string, field: string): number {
  try {
    const line = readFileSync(`/proc/${pid}/${file}`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    return line ? Number(line.split(/\s+/)[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Resident memory of a process, in MB. */
export const rssMb = (pid: number): number => fieldMb(pid, 'status', 'VmRSS');

/** Proportional set size of a process, in MB: memory it shares with others (PostgreSQL's buffers) split among them. */
export const pssMb = (pid: number): number => fieldMb(pid, 'smaps_rollup', 'Pss');

/** A process and all its descendants (Linux /proc). */
export function descendants(rootPid: number): number[] {
  const children = (pid: number): number[] => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const all = [rootPid];
  for (let i = 0; i < all.length; i++) all.push(...children(all[i]!));
  return all;
}
