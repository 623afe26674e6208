import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { ApiError, badRequest, forbidden } from '../../http/errors';
import { toFieldErrors } from '../../http/zod-issues';
import { validationError } from '../../http/errors';
import { isCurrent, SigningCertificates } from './certificates';
import { SesNotification, SnsMessage, type SnsResponse } from './schemas';
import { applySesNotification } from './ses';
import { hasValidSignature, isSupportedVersion } from './signature';
import { SnsHosts } from './sns-hosts';

const invalidSignature = (message: string) => new ApiError(403, 'INVALID_SIGNATURE', message);

const unavailable = (message: string) =>
  new ApiError(503, 'SERVICE_UNAVAILABLE', message, { suggestion: 'Amazon SNS retries the delivery later.' });

/** The JSON document SNS posted, checked against SnsMessage. */
export function parseSnsMessage(raw: Buffer): SnsMessage {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    throw badRequest('The body is not the JSON document of an Amazon SNS message');
  }
  const parsed = SnsMessage.safeParse(json, { reportInput: true });
  if (!parsed.success) throw validationError(toFieldErrors(parsed.error));
  return parsed.data;
}

/**
 * POST /webhooks/sns (docs/bounces.md): Amazon SES feedback delivered by Amazon SNS. Nothing is read from a
 * message before its signature is verified with the certificate SNS names, fetched from an allowed SNS host.
 */
export class SnsWebhook {
  private readonly hosts: SnsHosts;
  private readonly certificates: SigningCertificates;

  constructor(
    private readonly config: Pick<Config, 'SNS_CERT_HOST_PATTERN' | 'SNS_CA_FILE' | 'SNS_TOPIC_ARNS'>,
    /** Runs once a bounce or complaint of the project is recorded: the reputation check (docs/security.md). */
    private readonly afterFeedback: (projectId: string) => Promise<void>,
  ) {
    this.hosts = new SnsHosts(config);
    this.certificates = new SigningCertificates(this.hosts);
  }

  async handle(em: EntityManager, message: SnsMessage): Promise<SnsResponse['data']> {
    await this.verify(message);
    const topics = this.config.SNS_TOPIC_ARNS;
    if (topics.length > 0 && !topics.includes(message.TopicArn)) {
      throw forbidden(`Notifications of ${message.TopicArn} are not accepted (SNS_TOPIC_ARNS)`);
    }
    const type = message.Type;
    if (type === 'SubscriptionConfirmation') return { type, result: await this.confirm(message) };
    if (type === 'UnsubscribeConfirmation') return { type, result: 'ignored' };
    const notification = SesNotification.safeParse(safeJson(message.Message));
    // A notification that is not Amazon SES's is acknowledged, or SNS would deliver it again and again.
    if (!notification.success) return { type, result: 'ignored' };
    const { judge, ...applied } = await applySesNotification(em, notification.data);
    if (judge) await this.afterFeedback(judge);
    return { type, ...applied };
  }

  private async verify(message: SnsMessage): Promise<void> {
    if (!isSupportedVersion(message.SignatureVersion))
      throw invalidSignature(`SignatureVersion ${message.SignatureVersion} is not supported`);
    if (!this.hosts.isAllowed(message.SigningCertURL)) {
      throw invalidSignature('SigningCertURL is not an https URL of an allowed Amazon SNS host');
    }
    const certificate = await this.certificates.get(message.SigningCertURL).catch(() => {
      throw unavailable('The signing certificate could not be fetched');
    });
    if (!isCurrent(certificate)) throw invalidSignature('The signing certificate is not valid at this time');
    if (!hasValidSignature(message, certificate)) throw invalidSignature('The signature does not match the message');
  }

  /** Confirms the subscription by visiting SubscribeURL, which must be on an allowed SNS host too. */
  private async confirm(message: SnsMessage): Promise<'confirmed'> {
    const url = message.SubscribeURL;
    if (!url || !this.hosts.isAllowed(url)) throw badRequest('SubscribeURL is not an https URL of an allowed Amazon SNS host');
    await this.hosts.get(url).catch(() => {
      throw unavailable('The subscription could not be confirmed');
    });
    return 'confirmed';
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
