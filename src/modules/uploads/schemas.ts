import { z } from 'zod';
import { IMAGE_TYPES } from './image-type';

export const UploadForm = z.object({
  file: z.string().meta({ format: 'binary' }).describe('The image: PNG, JPEG, GIF or WebP, recognised by its content; SVG is refused'),
});

export const UploadResponse = z.object({
  url: z.url().describe('Public address of the image, for template bodies; it never changes content'),
  key: z.string(),
  contentType: z.enum(Object.values(IMAGE_TYPES) as [string, ...string[]]),
  size: z.number().int().describe('Bytes'),
});

const KEY = new RegExp(`^[0-9a-f]{64}\\.(${Object.keys(IMAGE_TYPES).join('|')})$`);
export const UploadKeyParams = z.object({ key: z.string().regex(KEY).describe('<sha256>.<png|jpg|gif|webp>') });

export const ImageBytes = z.string().meta({ format: 'binary' });
