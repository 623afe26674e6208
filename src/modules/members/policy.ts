import { forbidden } from '../../http/errors';
import type { Role } from '../projects/entities';

/** The role rules of docs/roles.md that depend only on the roles involved (the last-OWNER rule needs a count). */

/** Inviting (`current` null) or changing a role to `next`. */
export function assertCanAssign(actor: Role, current: Role | null, next: Role): void {
  if (actor === 'MEMBER') throw forbidden('Only an OWNER or ADMIN can invite members or change roles');
  if (actor === 'ADMIN' && (next === 'OWNER' || current === 'OWNER')) {
    throw forbidden('Only an OWNER can grant the OWNER role or change the role of an OWNER');
  }
}

export function assertCanRemove(actor: Role, target: Role, self: boolean): void {
  if (self) return;
  if (actor === 'MEMBER') throw forbidden('Only an OWNER or ADMIN can remove other members');
  if (actor === 'ADMIN' && target === 'OWNER') throw forbidden('Only an OWNER can remove an OWNER');
}
