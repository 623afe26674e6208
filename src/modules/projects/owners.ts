import type { EntityManager } from '@mikro-orm/postgresql';

const OWNERS = `
select u."email" from project_members m join users u on u."id" = m."user_id"
where m."project_id" = ? and m."role" = 'OWNER' and (not m."invited" or u."email_verified")
order by u."email"`;

/** The addresses of the project's active owners (an invited one counts once proven: docs/roles.md), whom the platform emails. */
export async function ownerEmails(em: EntityManager, projectId: string): Promise<string[]> {
  const rows = await em.execute<{ email: string }[]>(OWNERS, [projectId]);
  return rows.map((r) => r.email);
}
