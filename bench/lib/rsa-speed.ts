import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The time of one RSA-2048 signature on this machine, by `openssl speed rsa2048` (one core): what every
 * DKIM-signed email costs at least, measured in the same run as the figures it calibrates. Null when openssl
 * cannot be run.
 */
export async function rsa2048SignMs(seconds = 3): Promise<number | null> {
  try {
    const { stdout } = await run('openssl', ['speed', '-seconds', String(seconds), 'rsa2048'], { timeout: (seconds + 30) * 1000 });
    const match = /rsa\s+2048 bits\s+([\d.]+)s/.exec(stdout);
    return match ? Number(match[1]) * 1000 : null;
  } catch {
    return null;
  }
}
