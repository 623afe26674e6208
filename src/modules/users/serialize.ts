import type { z } from 'zod';
import type { User } from './entities';
import type { UserResponse } from './schemas';

export const serializeUser = (u: User): z.infer<typeof UserResponse> => ({
  id: u.id,
  email: u.email,
  emailVerified: u.emailVerified,
});
