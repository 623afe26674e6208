import type { Readable } from 'node:stream';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import { readMultipartFile } from '../../http/multipart';
import { defineRoute, type RouteDef } from '../../http/route';
import { IMAGE_TYPES, type ImageExtension } from './image-type';
import { ImageBytes, UploadForm, UploadKeyParams, UploadResponse } from './schemas';
import { imageStoreFor, storeImage } from './service';

const tag = 'Uploads';
const YEAR_SECONDS = 365 * 24 * 3600;

const readAll = async (file: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of file) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

export function uploadRoutes(deps: Deps): RouteDef[] {
  const { config } = deps;
  const store = imageStoreFor(config);
  const maxBytes = config.UPLOAD_MAX_IMAGE_MB * 1024 * 1024;
  const tooLarge = () =>
    new ApiError(413, 'PAYLOAD_TOO_LARGE', `The image exceeds ${config.UPLOAD_MAX_IMAGE_MB} MB`, {
      suggestion: 'Resize or compress the image; email clients show large images slowly anyway.',
    });
  return [
    defineRoute({
      method: 'post',
      path: '/uploads/image',
      tag,
      summary: `Upload an image for template bodies (multipart field file, at most UPLOAD_MAX_IMAGE_MB, default 5 MB); returns its public URL`,
      auth: 'secret',
      body: UploadForm,
      bodyType: 'none',
      responses: {
        201: { description: 'Stored; the same image always gets the same URL', schema: UploadResponse },
        400: { description: 'BAD_REQUEST: no file in the field file, or a malformed multipart body' },
        413: { description: 'PAYLOAD_TOO_LARGE: the image exceeds the size limit' },
        415: { description: 'UNSUPPORTED_MEDIA_TYPE: not multipart, or the file is not a PNG, JPEG, GIF or WebP image (SVG is refused)' },
      },
      handler: async (ctx) => {
        const bytes = await readMultipartFile(ctx, {
          field: 'file',
          maxBytes,
          noun: 'image',
          example: 'curl -F file=@logo.png',
          tooLarge,
          consume: readAll,
        });
        ctx.status = 201;
        ctx.body = await storeImage(store, config, bytes);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/uploads/{key}',
      tag,
      summary: 'An uploaded image; public, cacheable for good since its name is its content hash',
      auth: 'none',
      params: UploadKeyParams,
      responses: {
        200: { description: 'The image', schema: ImageBytes, contentType: 'image/*' },
        404: { description: 'NOT_FOUND: no such image' },
      },
      handler: async (ctx, { params }) => {
        const image = await store.get(params.key);
        if (!image) throw new ApiError(404, 'NOT_FOUND', 'Upload not found');
        const extension = params.key.split('.')[1] as ImageExtension;
        ctx.set('Cache-Control', `public, max-age=${YEAR_SECONDS}, immutable`);
        ctx.set('ETag', `"${params.key}"`);
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.set('Content-Security-Policy', "default-src 'none'");
        ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
        // Koa judges freshness only for a 2xx status.
        ctx.status = 200;
        if (ctx.fresh) {
          image.body.destroy();
          ctx.status = 304;
          return;
        }
        ctx.type = IMAGE_TYPES[extension];
        if (image.size !== null) ctx.length = image.size;
        ctx.body = image.body;
      },
    }),
  ];
}
