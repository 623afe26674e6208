import net from 'node:net';

/**
 * Where each service of a cluster listens: a block of consecutive ports from `base` (`npm run cluster`:
 * CLUSTER_PORT). The Temporal server stores its membership ports as a smallint, so the whole block stays below
 * 32768, which also keeps it out of the range the kernel hands to servers listening on port 0.
 */
export interface ClusterPorts {
  postgres: number;
  /** The Temporal frontend's gRPC port: what TEMPORAL_ADDRESS names. */
  temporal: number;
  temporalHttp: number;
  temporalHistory: number;
  temporalMatching: number;
  temporalWorker: number;
  /** Ringpop membership of the frontend, history, matching and worker services. */
  membership: { frontend: number; history: number; matching: number; worker: number };
  mailCaptureSmtp: number;
  mailCaptureWeb: number;
  apis: number[];
}

const HIGHEST = 32767;
/** Ports of the block before the APIs'. */
const FIXED = 12;

export const blockSize = (apis: number) => FIXED + apis;

export function clusterPorts(base: number, apis: number): ClusterPorts {
  if (!Number.isInteger(base) || base < 1024 || base + blockSize(apis) - 1 > HIGHEST) {
    throw new Error(
      `CLUSTER_PORT: the cluster takes ports ${base} to ${base + blockSize(apis) - 1}; they must lie from 1024 to ${HIGHEST}`,
    );
  }
  return {
    postgres: base,
    temporal: base + 1,
    temporalHttp: base + 2,
    temporalHistory: base + 3,
    temporalMatching: base + 4,
    temporalWorker: base + 5,
    membership: { frontend: base + 6, history: base + 7, matching: base + 8, worker: base + 9 },
    mailCaptureSmtp: base + 10,
    mailCaptureWeb: base + 11,
    apis: Array.from({ length: apis }, (_, i) => base + FIXED + i),
  };
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The first base from `from` on whose whole block nothing listens now (a test's or a benchmark's cluster). */
export async function freeBase(from: number, apis: number): Promise<number> {
  const size = blockSize(apis);
  for (let base = from; base + size - 1 <= HIGHEST; base += size) {
    let free = true;
    for (let port = base; port < base + size && free; port++) free = await bindable(port);
    if (free) return base;
  }
  throw new Error(`no block of ${size} free ports from ${from} to ${HIGHEST}`);
}
