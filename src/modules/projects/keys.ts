import { digest, newPublicKey, newSecretKey, secretHint } from '../../crypto/keys';
import type { Project } from './entities';

/** Issues a fresh key pair onto the project and returns the secret, which is never stored in clear. */
export function issueKeys(project: Pick<Project, 'publicKey' | 'publicKeyDigest' | 'secretKeyDigest' | 'secretKeyHint'>): string {
  const secret = newSecretKey();
  const publicKey = newPublicKey();
  project.publicKey = publicKey;
  project.publicKeyDigest = digest(publicKey);
  project.secretKeyDigest = digest(secret);
  project.secretKeyHint = secretHint(secret);
  return secret;
}
