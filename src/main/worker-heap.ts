import v8 from 'node:v8';

/**
 * NODE_OPTIONS the worker process is started with (npm start, the image's entry point, the benches): young
 * generations of 32 MB instead of V8's 128 MB, in the main thread and in the workflow thread. Under load each
 * otherwise fills its full 128 MB with short-lived objects (activations, rows, payloads). Half that (16 MB)
 * cost a campaign's workers 4% more CPU per email, its emails surviving into the old generation
 * (docs/contributors/campaigns.md "The worker's young generation").
 */
export const WORKER_NODE_OPTIONS = '--max-semi-space-size=16';

/** The worker's NODE_OPTIONS: its own flags, then whatever the environment already passes to Node. */
export const workerNodeOptions = (inherited: string | undefined): string => [WORKER_NODE_OPTIONS, inherited].filter(Boolean).join(' ');

/**
 * The old generation grows by half its live size before V8 collects it, instead of up to four times: the
 * worker's live heap stays near 75 MB in the main thread and 45 MB in the workflow thread under load, yet V8
 * let both grow to 170-235 MB of garbage first. Full collections then come more often; the automation bench
 * shows no difference in CPU per execution (docs/contributors/automations.md "Figures"). Node takes this V8 flag only on
 * the command line or here, not in NODE_OPTIONS; it applies to the isolates that exist and those made later.
 */
export function limitWorkerHeapGrowth(): void {
  v8.setFlagsFromString('--heap-growing-percent=50');
}
