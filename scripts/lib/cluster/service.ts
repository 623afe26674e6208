import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root } from '../paths';

/**
 * What every process of a cluster inherits from its caller: none of the caller's settings (a test run's
 * DATABASE_URL, a shell's LOG_LEVEL), which would change what it connects to or what the Temporal server's
 * configuration template renders.
 */
export const baseEnv = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR });

/**
 * One Node process of a cluster (an API, a worker, the migrations, PostgreSQL's keeper): Node itself with tsx's
 * loader, so that a signal reaches the process that does the work (a SIGKILL of a worker kills that worker), its
 * output appended to its log file.
 */
export class Service {
  private readonly child: ChildProcess;
  private readonly logOffset: number;
  /** Resolves with the exit code (null when a signal ended it). */
  readonly exited: Promise<number | null>;
  /** Set by whoever owns the process: called if it exits without being asked to. */
  onUnexpectedExit: ((code: number | null) => void) | null = null;
  private stopping = false;

  constructor(
    readonly name: string,
    script: string,
    env: NodeJS.ProcessEnv,
    readonly logFile: string,
    args: string[] = [],
  ) {
    fs.mkdirSync(path.dirname(logFile), { recursive: true });
    this.logOffset = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
    const out = fs.openSync(logFile, 'a');
    this.child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: root, env, stdio: ['ignore', out, out] });
    fs.closeSync(out);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code) => {
        if (!this.stopping) this.onUnexpectedExit?.(code);
        resolve(code);
      }),
    );
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** What it has written to its log since it started. */
  output(): string {
    const text = fs.readFileSync(this.logFile);
    return text.subarray(this.logOffset).toString('utf8');
  }

  /** Resolves once `ready` holds, polling; rejects with its last output if it exits first or takes longer. */
  async until(what: string, ready: () => Promise<boolean> | boolean, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await ready()) return;
      const failed = !this.running ? 'exited' : Date.now() > deadline ? `took over ${timeoutMs / 1000} s` : null;
      if (failed) throw new Error(`${this.name} ${failed} before ${what}; its last lines (${this.logFile}):\n${this.tail()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  tail(lines = 20): string {
    return this.output().split('\n').slice(-lines).join('\n');
  }

  /** SIGKILL: the process dies at once, with whatever it was doing. */
  async kill(): Promise<void> {
    await this.signal('SIGKILL');
  }

  /** SIGTERM (it drains, as on `docker compose stop`), SIGKILL if it has not exited within `graceMs`. */
  async stop(graceMs = 30_000): Promise<void> {
    const force = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.signal('SIGTERM');
    clearTimeout(force);
  }

  private async signal(name: NodeJS.Signals): Promise<void> {
    this.stopping = true;
    if (this.running) this.child.kill(name);
    await this.exited;
  }
}
