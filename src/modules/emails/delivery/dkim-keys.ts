import { createPrivateKey } from 'node:crypto';
import type { Config } from '../../../config';
import type { Orm } from '../../../db/orm';
import { dkimKeyForSender } from '../../domains/sender';
import { domainOfAddress } from '../../domains/hostname';
import type { SigningKey } from '../dkim-signature';

const TTL_MS = 60_000;

/**
 * Sender domains' DKIM keys for the pump, kept for a minute: thousands of emails from one domain cost one
 * lookup, one decryption and one parse. A rotated key or a removed domain is noticed within that minute.
 */
export class DkimKeys {
  private readonly cache = new Map<string, { expires: number; key: Promise<SigningKey | null> }>();

  constructor(
    private readonly orm: Orm,
    private readonly config: Config,
  ) {}

  get(projectId: string, fromAddress: string): Promise<SigningKey | null> {
    const id = `${projectId}:${domainOfAddress(fromAddress)}`;
    const now = Date.now();
    const hit = this.cache.get(id);
    if (hit && hit.expires > now) return hit.key;
    const key = dkimKeyForSender(this.orm.em.fork(), this.config, projectId, fromAddress).then((found) =>
      found ? { ...found, privateKey: createPrivateKey(found.privateKey) } : null,
    );
    this.cache.set(id, { expires: now + TTL_MS, key });
    // A failed lookup is not remembered.
    key.catch(() => this.cache.delete(id));
    return key;
  }
}
