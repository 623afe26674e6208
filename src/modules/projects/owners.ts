import type { EntityManager } from '@mikro-orm/postgresql';

const OWNERS = `
select m."project_id", u."email" from project_members m join users u on u."id" = m."user_id"
where m."project_id" = any(?::uuid[]) and m."role" = 'OWNER' and (not m."invited" or u."email_verified")
order by u."email"`;

/**
 * The addresses of each project's active owners (an invited one counts once proven: docs/roles.md), whom the
 * platform emails, sorted; a project without one is absent.
 */
export async function ownerEmailsOf(em: EntityManager, projectIds: readonly string[]): Promise<Map<string, string[]>> {
  const rows = await em.execute<{ project_id: string; email: string }[]>(OWNERS, [`{${projectIds.join(',')}}`]);
  const owners = new Map<string, string[]>();
  for (const { project_id, email } of rows) owners.set(project_id, [...(owners.get(project_id) ?? []), email]);
  return owners;
}

/** The addresses of the project's active owners. */
export async function ownerEmails(em: EntityManager, projectId: string): Promise<string[]> {
  return (await ownerEmailsOf(em, [projectId])).get(projectId) ?? [];
}
