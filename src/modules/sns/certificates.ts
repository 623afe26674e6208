import { X509Certificate } from 'node:crypto';
import type { SnsHosts } from './sns-hosts';

const MAX_CACHED = 100;

/**
 * SNS signing certificates by URL, fetched once: SNS signs with few certificates, and a URL names one
 * certificate for good. A failed fetch is not remembered, and an expired certificate is fetched again.
 */
export class SigningCertificates {
  private readonly cache = new Map<string, Promise<X509Certificate>>();

  constructor(private readonly hosts: SnsHosts) {}

  async get(url: string): Promise<X509Certificate> {
    const cached = this.cache.get(url);
    if (cached) {
      const certificate = await cached;
      if (isCurrent(certificate)) return certificate;
      this.cache.delete(url);
    }
    const fetched = this.hosts.get(url).then((pem) => new X509Certificate(pem));
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(url, fetched);
    fetched.catch(() => this.cache.delete(url));
    return fetched;
  }
}

export function isCurrent(certificate: X509Certificate, now = new Date()): boolean {
  return new Date(certificate.validFrom) <= now && now <= new Date(certificate.validTo);
}
