import type { AddressInfo } from 'node:net';
import type { SMTPServer } from 'smtp-server';
import type { Deps } from '../deps';
import { inboundSmtpServer } from '../modules/inbound/server';
import { imageStoreFor } from '../modules/uploads/service';
import { relaySmtpServer } from '../modules/relay/server';
import { RateLimiter } from '../http/rate-limit';

/** The SMTP servers of the API process (docs/smtp.md); a port is null where its server is off. */
export interface SmtpListeners {
  inboundPort: number | null;
  relayPort: number | null;
  close(): Promise<void>;
}

function listen(server: SMTPServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.server.address() as AddressInfo).port);
    });
  });
}

const closeServer = (server: SMTPServer) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * Starts the inbound SMTP server and the relay where their ports are set (0: any free port, for tests);
 * `close` stops both, letting transactions under way finish within the servers' close timeout.
 */
export async function startSmtpListeners(deps: Deps, ports: { inbound?: number; relay?: number }): Promise<SmtpListeners> {
  const servers: SMTPServer[] = [];
  const close = () => Promise.all(servers.map(closeServer)).then(() => undefined);
  try {
    let inboundPort: number | null = null;
    if (ports.inbound !== undefined) {
      const server = inboundSmtpServer({ ...deps, store: imageStoreFor(deps.config) });
      servers.push(server);
      inboundPort = await listen(server, ports.inbound, deps.config.HOST);
    }
    let relayPort: number | null = null;
    if (ports.relay !== undefined) {
      const server = relaySmtpServer({ ...deps, limiter: new RateLimiter(deps.orm, deps.config, deps.logger) });
      servers.push(server);
      relayPort = await listen(server, ports.relay, deps.config.HOST);
    }
    return { inboundPort, relayPort, close };
  } catch (err) {
    await close();
    throw err;
  }
}
