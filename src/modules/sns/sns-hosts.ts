import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { Config } from '../../config';

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 64 * 1024;

export type SnsHostSettings = Pick<Config, 'SNS_CERT_HOST_PATTERN' | 'SNS_CA_FILE'>;

/** A URL the service would not fetch: not https, or not on a host of SNS_CERT_HOST_PATTERN. */
class HostNotAllowed extends Error {}

/**
 * GET requests to Amazon SNS only: its signing certificates and subscription confirmations. The URL must be
 * https on a host matching SNS_CERT_HOST_PATTERN (sns.<region>.amazonaws.com), so that a forged message
 * cannot make the service trust a certificate of its own choosing or call an address of its choosing. TLS is
 * verified against the system's authorities, plus those of SNS_CA_FILE.
 */
export class SnsHosts {
  private ca: string[] | undefined;

  constructor(private readonly settings: SnsHostSettings) {}

  isAllowed(url: string): boolean {
    try {
      const { protocol, hostname } = new URL(url);
      return protocol === 'https:' && this.settings.SNS_CERT_HOST_PATTERN.test(hostname);
    } catch {
      return false;
    }
  }

  /** The body of a 200 answer; throws HostNotAllowed, or an Error when the request fails. */
  get(url: string): Promise<string> {
    if (!this.isAllowed(url)) return Promise.reject(new HostNotAllowed(`${url} is not an https URL of an allowed SNS host`));
    return new Promise((resolve, reject) => {
      // Rare requests (certificates are cached): no pooled connection is kept open for them.
      const ca = this.trusted();
      const options = { method: 'GET', timeout: TIMEOUT_MS, agent: false, ...(ca ? { ca } : {}) };
      const req = request(url, options, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return reject(new Error(`GET ${url} answered ${res.statusCode}`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BYTES) req.destroy(new Error(`GET ${url} answered more than ${MAX_BYTES} bytes`));
          else chunks.push(chunk);
        });
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
      req.on('error', reject);
      req.end();
    });
  }

  private trusted(): string[] | undefined {
    const file = this.settings.SNS_CA_FILE;
    if (file && !this.ca) this.ca = [...rootCertificates, readFileSync(file, 'utf8')];
    return this.ca;
  }
}
