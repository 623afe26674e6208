import { z } from 'zod';

export const ProjectName = z.string().trim().min(1, 'Name is required').max(100);
export const ProjectIdParams = z.object({ id: z.uuid() });

export const ProjectResponse = z.object({
  id: z.uuid(),
  name: z.string(),
  public: z.string().describe('Public key (pk_…), safe to embed in browsers; only for /v1/track'),
  secret: z.string().describe('Secret key (sk_…): in full only when created or rotated, masked afterwards'),
  disabled: z.boolean(),
  role: z.enum(['OWNER', 'ADMIN', 'MEMBER']).optional(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type ProjectResponse = z.infer<typeof ProjectResponse>;
