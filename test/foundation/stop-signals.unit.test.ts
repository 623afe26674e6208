import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.join(__dirname, '..', '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

/**
 * A process run by tsx, as npm start runs its own, that gets its stop signal twice (Ctrl-C or a process manager's SIGTERM,
 * then tsx relaying it): it must finish stopping, not be ended by the second signal (tsx's own handler ends a
 * process that has no handler of its own left).
 */
describe('stop signals', () => {
  it.each([
    ['SIGINT', 'SIGINT'],
    ['SIGTERM', 'SIGTERM'],
  ] as const)('a process under tsx that gets %s then %s while stopping finishes stopping', async (first, second) => {
    const child = spawn(tsx, [path.join(root, 'test', 'helpers', 'stop-signals-process.ts')], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const pid = await new Promise<number>((resolve, reject) => {
      const look = setInterval(() => {
        const found = /pid (\d+)/.exec(output);
        if (found) {
          clearInterval(look);
          resolve(Number(found[1]));
        }
      }, 20);
      child.once('exit', () => reject(new Error(`exited before it started: ${output}`)));
    });
    // The signals go to the process tsx runs, as the terminal sends them to every process of the group.
    process.kill(pid, first);
    await new Promise((resolve) => setTimeout(resolve, 50));
    process.kill(pid, second);
    expect(await exited).toBe(0);
    expect(output).toContain('stopped');
  });
});
