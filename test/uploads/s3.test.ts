import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { startStack, type TestStack } from '../helpers/stack';
import type { TestProject } from '../helpers/fixtures';
import { IMAGES, filesUnder, getImage, pathOfUrl, sha256, upload } from './helpers';
import { newTenant } from '../helpers/tenants';

/** s3rver: an S3-compatible server on loopback that keeps objects under a folder, with a bucket made up front. */
const s3Dir = mkdtempSync(path.join(os.tmpdir(), 'postwire-s3-'));
const uploadsDir = mkdtempSync(path.join(os.tmpdir(), 'postwire-uploads-'));
const s3 = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: s3Dir,
  configureBuckets: [{ name: 'images', configs: [] }],
});
let stack: TestStack;
let project: TestProject;
beforeAll(async () => {
  const { port } = await s3.run();
  stack = await startStack({
    env: {
      UPLOADS_DIR: uploadsDir,
      UPLOADS_S3_BUCKET: 'images',
      UPLOADS_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      UPLOADS_S3_FORCE_PATH_STYLE: 'true',
      UPLOADS_S3_ACCESS_KEY_ID: 'S3RVER',
      UPLOADS_S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
  });
  project = (await newTenant(stack)).project;
});
afterAll(async () => {
  await stack?.close();
  await s3.close();
  rmSync(s3Dir, { recursive: true, force: true });
  rmSync(uploadsDir, { recursive: true, force: true });
});

describe('uploads in an S3-compatible bucket', () => {
  it('stores the image as an object of the bucket, not on disk, and serves it back through the API', async () => {
    const bytes = Buffer.concat([IMAGES.webp, Buffer.from('in the bucket')]);
    const { key, url } = (await upload(stack, project, bytes, 'banner.webp').expect(201)).body;
    expect(key).toBe(`${sha256(bytes)}.webp`);
    expect(filesUnder(uploadsDir)).toEqual([]);
    expect(filesUnder(path.join(s3Dir, 'images')).some((f) => f.startsWith(key))).toBe(true);

    const res = await getImage(stack, pathOfUrl(url)).expect(200);
    expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers 404 for a key the bucket does not have', async () => {
    expect((await stack.http().get(`/uploads/${sha256(Buffer.from('absent'))}.gif`)).status).toBe(404);
  });
});
