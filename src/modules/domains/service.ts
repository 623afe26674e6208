import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { SecretBox } from '../../crypto/secret-box';
import { newId } from '../../db/columns';
import { conflict, notFound } from '../../http/errors';
import { callTemporal } from '../../temporal/unavailable';
import { startDomainVerify, stopDomainVerify } from '../../temporal/domain-verify';
import { Domain } from './entities';
import { newDkimKey } from './dkim';
import { expectedRecords, withInboundRecord } from './records';
import { forgetVerifiedSender } from './verified-senders';

const duplicate = (name: string) => conflict(`The domain ${name} is already added to this project`, { domain: name });

/**
 * Adds a domain with a fresh DKIM key and starts its background check. When that start fails the domain is
 * removed again, so no domain exists without its check; Temporal being unreachable is a 503.
 */
export async function addDomain(deps: Deps, em: EntityManager, projectId: string, name: string, inbound = false): Promise<Domain> {
  if ((await em.count(Domain, { projectId, domain: name })) > 0) throw duplicate(name);
  const id = newId();
  const { config } = deps;
  const key = await newDkimKey(new SecretBox(config.ENCRYPTION_KEY), id);
  const domain = em.create(Domain, {
    id,
    projectId,
    domain: name,
    selector: config.DKIM_SELECTOR,
    dkimPublicKey: key.publicKey,
    dkimPrivateKeyEncrypted: key.sealedPrivateKey,
    verified: false,
    verifiedAt: null,
    lastCheckedAt: null,
    records: withInboundRecord(
      expectedRecords(name, config.DKIM_SELECTOR, key.publicKey, config.SPF_INCLUDE),
      name,
      config.INBOUND_MX_HOST,
      inbound,
    ),
    inbound,
  });
  try {
    await em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw duplicate(name);
    throw err;
  }
  try {
    await callTemporal('the domain was not added', () => startDomainVerify(deps.temporal, domain));
  } catch (err) {
    await em.remove(domain).flush();
    throw err;
  }
  return domain;
}

export const listDomains = (em: EntityManager, projectId: string) =>
  em.find(Domain, { projectId }, { orderBy: { createdAt: 'desc', id: 'desc' } });

/** A domain of the project; another project's domain is as absent as a missing one. */
export async function findDomain(em: EntityManager, projectId: string, id: string): Promise<Domain> {
  const domain = await em.findOne(Domain, { id, projectId });
  if (!domain) throw notFound('Domain', 'DOMAIN_NOT_FOUND');
  return domain;
}

/** Turns inbound mail on or off; the MX record is listed while it is on, PENDING until the next check finds it. */
export async function setInbound(em: EntityManager, mxHost: string, projectId: string, id: string, inbound: boolean): Promise<Domain> {
  const domain = await findDomain(em, projectId, id);
  domain.inbound = inbound;
  domain.records = withInboundRecord(domain.records, domain.domain, mxHost, inbound);
  await em.flush();
  return domain;
}

/**
 * Deletes the domain, then stops its check. If Temporal cannot be reached the deletion stands: the loop ends
 * by itself at its next check, which finds the domain gone.
 */
export async function deleteDomain(deps: Deps, em: EntityManager, projectId: string, id: string): Promise<void> {
  const domain = await findDomain(em, projectId, id);
  await em.remove(domain).flush();
  forgetVerifiedSender(projectId, domain.domain);
  try {
    await stopDomainVerify(deps.temporal, id);
  } catch (err) {
    deps.logger.warn({ err, domainId: id }, 'could not stop the domain check; it ends at its next run');
  }
}
