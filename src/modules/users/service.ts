import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiError } from '../../http/errors';
import { hashPassword, verifyPassword } from '../../crypto/passwords';
import { User } from './entities';

const invalidCredentials = () => new ApiError(401, 'INVALID_CREDENTIALS', 'Invalid email or password');

export async function signup(em: EntityManager, email: string, password: string): Promise<User> {
  const existing = await em.findOne(User, { email });
  if (existing?.passwordHash) throw new ApiError(409, 'CONFLICT', 'An account with this email already exists');
  // An invited user who never set a password claims the account by signing up.
  const user = existing ?? em.create(User, { email, emailVerified: false });
  user.passwordHash = await hashPassword(password);
  await em.persist(user).flush();
  return user;
}

export async function login(em: EntityManager, email: string, password: string): Promise<User> {
  const user = await em.findOne(User, { email });
  if (!(await verifyPassword(password, user?.passwordHash))) throw invalidCredentials();
  return user!;
}
