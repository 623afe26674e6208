import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { TestStack } from '../helpers/stack';
import type { TestProject } from '../helpers/fixtures';

/** The leading bytes of each accepted format, padded to look like a file; what the server checks is the start. */
export const IMAGES = {
  png: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR png body')]),
  jpg: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF jpeg body')]),
  gif: Buffer.from('GIF89a gif body'),
  webp: Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x20, 0, 0, 0]), Buffer.from('WEBPVP8 webp body')]),
} as const;

export const CONTENT_TYPES = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' } as const;

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export const upload = (stack: TestStack, project: TestProject, bytes: Buffer, filename = 'picture.png', field = 'file') =>
  stack.http().post('/uploads/image').set('Authorization', `Bearer ${project.secret}`).attach(field, bytes, filename);

/** Every file under a folder, by path relative to it. */
export function filesUnder(root: string): string[] {
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
      .sort();
  } catch {
    return [];
  }
}

/** The path of the image from a response's URL, to request it from the stack. */
export const pathOfUrl = (url: string) => new URL(url).pathname;

/** GET an image with its bytes as the body. */
export const getImage = (stack: TestStack, urlPath: string) =>
  stack
    .http()
    .get(urlPath)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
