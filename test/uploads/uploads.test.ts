import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStack, type TestStack } from '../helpers/stack';
import type { TestProject } from '../helpers/fixtures';
import { CONTENT_TYPES, IMAGES, filesUnder, getImage, pathOfUrl, sha256, upload } from './helpers';
import { newTenant } from '../helpers/tenants';

const dir = mkdtempSync(path.join(os.tmpdir(), 'postwire-uploads-'));
let stack: TestStack;
let project: TestProject;
beforeAll(async () => {
  stack = await startStack({ env: { UPLOADS_DIR: dir, UPLOAD_MAX_IMAGE_MB: '1', PUBLIC_URL: 'https://mail.example.test' } });
  project = (await newTenant(stack)).project;
});
afterAll(async () => {
  await stack?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('POST /uploads/image', () => {
  it.each(Object.entries(IMAGES))('stores a %s under its content hash and returns its public URL', async (extension, bytes) => {
    const key = `${sha256(bytes)}.${extension}`;
    const res = await upload(stack, project, bytes, 'any-name.bin').expect(201);
    expect(res.body).toEqual({
      url: `https://mail.example.test/uploads/${key}`,
      key,
      contentType: CONTENT_TYPES[extension as keyof typeof CONTENT_TYPES],
      size: bytes.length,
    });
    expect(filesUnder(dir)).toContain(path.join(key.slice(0, 2), key));
  });

  it('gives the same image the same URL, whoever uploads it, and stores it once', async () => {
    const bytes = Buffer.concat([IMAGES.png, Buffer.from('same twice')]);
    const first = await upload(stack, project, bytes).expect(201);
    const other = (await newTenant(stack)).project;
    const second = await upload(stack, other, bytes, 'renamed.png').expect(201);
    expect(second.body.url).toBe(first.body.url);
    expect(filesUnder(dir).filter((f) => f.endsWith(first.body.key))).toHaveLength(1);
  });

  it('refuses what is not a PNG, JPEG, GIF or WebP by its content, SVG included, and stores nothing', async () => {
    const before = filesUnder(dir);
    const svg = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const refusedSvg = await upload(stack, project, svg, 'logo.svg').expect(415);
    expect(refusedSvg.body.error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'SVG images are not accepted' });
    const disguised = await upload(stack, project, Buffer.from('just text, named like a picture'), 'photo.png').expect(415);
    expect(disguised.body.error.message).toBe('The file is not a PNG, JPEG, GIF or WebP image');
    await upload(stack, project, Buffer.alloc(0), 'empty.png').expect(415);
    expect(filesUnder(dir)).toEqual(before);
  });

  it('refuses an image over UPLOAD_MAX_IMAGE_MB with 413, a missing file with 400, a body that is not multipart with 415', async () => {
    const before = filesUnder(dir);
    const big = Buffer.concat([IMAGES.png, Buffer.alloc(1024 * 1024)]);
    const tooLarge = await upload(stack, project, big).expect(413);
    expect(tooLarge.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'The image exceeds 1 MB' });
    const elsewhere = await upload(stack, project, IMAGES.png, 'a.png', 'picture').expect(400);
    expect(elsewhere.body.error.message).toBe('No image in the multipart field file');
    const json = await stack
      .http()
      .post('/uploads/image')
      .set('Authorization', `Bearer ${project.secret}`)
      .send({ file: 'iVBORw0KGgo=' })
      .expect(415);
    expect(json.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(filesUnder(dir)).toEqual(before);
  });

  it('needs a secret key', async () => {
    const before = filesUnder(dir);
    expect((await stack.http().post('/uploads/image').attach('file', IMAGES.gif, 'a.gif')).status).toBe(401);
    const publicKey = await stack
      .http()
      .post('/uploads/image')
      .set('Authorization', `Bearer ${project.public}`)
      .attach('file', IMAGES.gif, 'a.gif');
    expect(publicKey.body.error.code).toBe('INVALID_API_KEY');
    expect(filesUnder(dir)).toEqual(before);
  });
});

describe('GET /uploads/{key}', () => {
  it('serves the image publicly with its type, cached for good, and answers a revalidation with 304', async () => {
    const bytes = Buffer.concat([IMAGES.jpg, Buffer.from('served back')]);
    const { url, key } = (await upload(stack, project, bytes, 'x.jpg').expect(201)).body;
    const res = await getImage(stack, pathOfUrl(url)).expect(200);
    expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
    expect(res.headers).toMatchObject({
      'content-type': 'image/jpeg',
      'content-length': String(bytes.length),
      'cache-control': 'public, max-age=31536000, immutable',
      etag: `"${key}"`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'",
    });
    const again = await stack.http().get(pathOfUrl(url)).set('If-None-Match', `"${key}"`);
    expect(again.status).toBe(304);
  });

  it('answers 404 for an unknown image, a malformed key, or a path that leaves the folder', async () => {
    for (const key of [
      `${sha256(Buffer.from('never uploaded'))}.png`,
      'logo.png',
      `${sha256(Buffer.from('x'))}.svg`,
      '..%2F..%2Fetc%2Fpasswd',
    ]) {
      const res = await stack.http().get(`/uploads/${key}`);
      expect([key, res.status, res.body.error?.code]).toEqual([key, 404, 'NOT_FOUND']);
    }
  });
});
