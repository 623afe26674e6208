import type { z } from 'zod';
import type { Contact } from './entities';
import type { ContactResponse } from './schemas';

export const serializeContact = (c: Contact): z.infer<typeof ContactResponse> => ({
  id: c.id,
  email: c.email,
  subscribed: c.subscribed,
  data: c.data,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});
