import { createVerify, type X509Certificate } from 'node:crypto';
import type { SnsMessage } from './schemas';

const ALGORITHMS: Record<string, string> = { '1': 'RSA-SHA1', '2': 'RSA-SHA256' };

// The fields SNS signs, in its order; a field a message lacks (Subject) is left out.
const SIGNED_FIELDS: Record<SnsMessage['Type'], Array<keyof SnsMessage>> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

/** The text SNS signs: each present field's name and value, each on its own line. */
export function stringToSign(message: SnsMessage): string {
  return SIGNED_FIELDS[message.Type]
    .filter((field) => message[field] !== undefined)
    .map((field) => `${field}\n${message[field]}\n`)
    .join('');
}

export const isSupportedVersion = (version: string) => version in ALGORITHMS;

/** True when the message's Signature is the certificate's signature of it (SignatureVersion 1 or 2). */
export function hasValidSignature(message: SnsMessage, certificate: X509Certificate): boolean {
  const algorithm = ALGORITHMS[message.SignatureVersion];
  if (!algorithm) return false;
  return createVerify(algorithm).update(stringToSign(message), 'utf8').verify(certificate.publicKey, message.Signature, 'base64');
}
