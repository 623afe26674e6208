import { z } from 'zod';

export const Email = z.email().max(320).transform((e) => e.toLowerCase());

export const Credentials = z.object({
  email: Email,
  password: z.string().min(8, 'Password must be at least 8 characters').max(1024),
});

export const UserResponse = z.object({
  id: z.uuid(),
  email: z.email(),
  emailVerified: z.boolean(),
});
