import { randomBytes } from 'node:crypto';
import { initOrm } from '../../src/app/orm';
import type { Orm } from '../../src/db/orm';
import { sql } from './seed';
import type { TestStack } from './stack';

export interface RefusingOrm {
  orm: Orm;
  /** From now on the database refuses every statement of this ORM's role on the stack's tables. */
  refuse(): Promise<void>;
  /** Closes the ORM and drops its role; call it once whatever uses the ORM has stopped. */
  close(): Promise<void>;
}

/**
 * An ORM on the stack's database under a login role of its own, which the database can stop taking writes
 * from at once: its statements fail with an error, as they would against a database that no longer takes
 * them. Closing the ORM under its users would not do: a connection asked of a pool while it closes waits
 * for the pool's acquire timeout (a minute) instead of failing.
 */
export async function refusingOrm(stack: TestStack, poolSize = 2): Promise<RefusingOrm> {
  const role = `pw_refused_${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  await sql(
    stack,
    `create role "${role}" login password '${password}';
     grant usage on schema public to "${role}";
     grant all on all tables in schema public to "${role}";
     grant all on all sequences in schema public to "${role}"`,
  );
  const url = new URL(stack.deps.config.DATABASE_URL);
  url.username = role;
  url.password = password;
  const orm = await initOrm(url.toString(), poolSize);
  return {
    orm,
    refuse: async () => {
      await sql(stack, `revoke all on all tables in schema public from "${role}"`);
    },
    close: async () => {
      await orm.close();
      await sql(stack, `drop owned by "${role}"; drop role "${role}"`);
    },
  };
}
