import { createSign, KeyObject, webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
const DAY = 24 * 3600_000;

type KeyPair = { privateKey: webcrypto.CryptoKey; publicKey: webcrypto.CryptoKey };
const newKeys = () => webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify']) as Promise<KeyPair>;

/** The fields of an SNS message that the sender chooses; signing adds the rest. */
export interface UnsignedSnsMessage {
  Type: 'Notification' | 'SubscriptionConfirmation' | 'UnsubscribeConfirmation';
  MessageId: string;
  TopicArn: string;
  Subject?: string;
  Message: string;
  Timestamp: string;
  SubscribeURL?: string;
  Token?: string;
}

export type SignedSnsMessage = UnsignedSnsMessage & { SignatureVersion: string; Signature: string; SigningCertURL: string };

const SIGNED: Record<UnsignedSnsMessage['Type'], Array<keyof UnsignedSnsMessage>> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

/**
 * Stands in for Amazon SNS's HTTPS endpoints on loopback: a certificate authority of its own (written to
 * `caFile`, for SNS_CA_FILE), an HTTPS server for `localhost` that serves the signing certificate and answers
 * subscription confirmations, and the signing key that the messages of a test are signed with.
 */
export class SnsServer {
  /** Paths requested, in order. */
  readonly requests: string[] = [];
  private server!: Server;
  private dir!: string;
  private signingKey!: KeyObject;
  /** A key the certificate does not belong to, for forged signatures. */
  private rogueKey!: KeyObject;
  private signingCert!: string;
  port = 0;

  static async start(): Promise<SnsServer> {
    const sns = new SnsServer();
    await sns.init();
    return sns;
  }

  /** SNS_CERT_HOST_PATTERN and SNS_CA_FILE for a stack that trusts this server. */
  get env(): Record<string, string> {
    return { SNS_CERT_HOST_PATTERN: '^localhost$', SNS_CA_FILE: path.join(this.dir, 'ca.pem') };
  }

  url(pathname: string, host = 'localhost'): string {
    return `https://${host}:${this.port}${pathname}`;
  }

  get certUrl(): string {
    return this.url('/SimpleNotificationService-test.pem');
  }

  /** Signs like SNS: SignatureVersion 1 is SHA1withRSA, 2 SHA256withRSA; `rogue` signs with a foreign key. */
  sign(message: UnsignedSnsMessage, options: { version?: '1' | '2'; certUrl?: string; rogue?: boolean } = {}): SignedSnsMessage {
    const version = options.version ?? '2';
    const text = SIGNED[message.Type]
      .filter((f) => message[f] !== undefined)
      .map((f) => `${f}\n${message[f]}\n`)
      .join('');
    const signature = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
      .update(text)
      .sign(options.rogue ? this.rogueKey : this.signingKey, 'base64');
    return { ...message, SignatureVersion: version, Signature: signature, SigningCertURL: options.certUrl ?? this.certUrl };
  }

  private async init(): Promise<void> {
    const notBefore = new Date(Date.now() - DAY);
    const notAfter = new Date(Date.now() + DAY);
    const caKeys = await newKeys();
    const ca = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '01',
      name: 'CN=Postwire test SNS authority',
      notBefore,
      notAfter,
      signingAlgorithm: RSA,
      keys: caKeys,
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true),
      ],
    });
    const issue = async (serialNumber: string, subject: string, keys: KeyPair, extensions: x509.Extension[]) =>
      x509.X509CertificateGenerator.create({
        serialNumber,
        subject,
        issuer: ca.subject,
        notBefore,
        notAfter,
        signingAlgorithm: RSA,
        publicKey: keys.publicKey,
        signingKey: caKeys.privateKey,
        extensions,
      });
    const tlsKeys = await newKeys();
    const tlsCert = await issue('02', 'CN=localhost', tlsKeys, [
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: 'localhost' }]),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    ]);
    const signingKeys = await newKeys();
    this.signingCert = (await issue('03', 'CN=sns.test.amazonaws.com', signingKeys, [])).toString('pem');
    this.signingKey = KeyObject.from(signingKeys.privateKey);
    this.rogueKey = KeyObject.from((await newKeys()).privateKey);

    this.dir = mkdtempSync(path.join(tmpdir(), 'postwire-sns-'));
    writeFileSync(path.join(this.dir, 'ca.pem'), ca.toString('pem'));
    const tlsKey = KeyObject.from(tlsKeys.privateKey).export({ type: 'pkcs8', format: 'pem' });
    this.server = createServer({ key: tlsKey, cert: tlsCert.toString('pem') }, (req, res) => {
      this.requests.push(req.url ?? '');
      if (req.url === new URL(this.certUrl).pathname) {
        res.writeHead(200, { 'Content-Type': 'application/x-pem-file' }).end(this.signingCert);
      } else if (req.url?.startsWith('/confirm')) {
        res.writeHead(200, { 'Content-Type': 'text/xml' }).end('<ConfirmSubscriptionResponse/>');
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
