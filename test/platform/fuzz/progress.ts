import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';

/**
 * What the fuzz step tells about a run that did not end in time: the requests the API had not answered, the
 * database's busy sessions, and how far schemathesis got (its NDJSON event stream, written as it goes).
 */

/** The API's requests still unanswered, by the time they arrived: attached to the stack's server. */
export class InFlight {
  private readonly open = new Map<IncomingMessage, number>();

  constructor(server: Server) {
    server.on('request', (req: IncomingMessage, res) => {
      this.open.set(req, Date.now());
      res.once('close', () => this.open.delete(req));
    });
  }

  /** The requests open for longer than `ms`, oldest first, as `METHOD url (N s)`. */
  olderThan(ms: number): string[] {
    const now = Date.now();
    return [...this.open]
      .filter(([, since]) => now - since > ms)
      .sort((a, b) => a[1] - b[1])
      .map(([req, since]) => `${req.method} ${req.url} (${((now - since) / 1000).toFixed(0)} s)`);
  }
}

interface Finished {
  label: string;
  phase: string;
  seconds: number;
}

/** One event of schemathesis's NDJSON stream, as far as this reads it. */
interface Event {
  PhaseStarted?: { phase: { name: string } };
  ScenarioFinished?: { phase: string; elapsed_time: number; recorder?: { label?: string } };
}

function finishedScenarios(ndjson: string): { phase: string | undefined; finished: Finished[] } {
  let phase: string | undefined;
  const finished: Finished[] = [];
  let text: string;
  try {
    text = readFileSync(ndjson, 'utf8');
  } catch {
    return { phase, finished };
  }
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let event: Event;
    try {
      event = JSON.parse(line) as Event;
    } catch {
      continue; // the line being written
    }
    if (event.PhaseStarted) phase = event.PhaseStarted.phase.name;
    const scenario = event.ScenarioFinished;
    if (scenario?.recorder?.label !== undefined) {
      finished.push({ label: scenario.recorder.label, phase: scenario.phase, seconds: scenario.elapsed_time });
    }
  }
  return { phase, finished };
}

/** The operations that took longest, summed over their scenarios: `label phase N s`. */
export function slowest(ndjson: string, count: number): string[] {
  const totals = new Map<string, number>();
  for (const { label, phase, seconds } of finishedScenarios(ndjson).finished) {
    const key = `${label} (${phase})`;
    totals.set(key, (totals.get(key) ?? 0) + seconds);
  }
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, seconds]) => `${key} ${seconds.toFixed(0)} s`);
}

/** Where the run is: its phase, how many scenarios it finished, and the last few. */
export function whereItIs(ndjson: string): string {
  const { phase, finished } = finishedScenarios(ndjson);
  const last = finished.slice(-5).map((f) => f.label);
  return `phase ${phase ?? 'none'}, ${finished.length} scenarios finished, the last: ${last.join('; ') || 'none'}`;
}
