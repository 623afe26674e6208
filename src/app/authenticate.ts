import type { EntityManager } from '@mikro-orm/postgresql';
import { executePrepared } from '../db/prepared';
import type { Deps } from '../deps';
import type { AppContext } from '../http/context';
import { ApiError, forbidden, unauthorized } from '../http/errors';
import type { AuthKind } from '../http/route';
import { Project, ProjectMember, isActiveMember } from '../modules/projects/entities';
import { User } from '../modules/users/entities';
import { SESSION_NOT_ENDED } from '../auth/ended-sessions';
import { digest, sameSecret } from '../crypto/keys';
import { SESSION_COOKIE } from '../auth/session';

const invalidKey = (message: string) =>
  new ApiError(401, 'INVALID_API_KEY', message, {
    suggestion: 'Send Authorization: Bearer sk_… (or pk_… on /v1/track) with a key of this project.',
  });

function bearer(ctx: AppContext): string | undefined {
  const header = ctx.get('authorization');
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/** The user of a valid session cookie: not ended by logout, nor by a password reset (session version). */
async function sessionUser(deps: Deps, ctx: AppContext): Promise<User | null> {
  const token = ctx.cookies.get(SESSION_COOKIE);
  if (!token) return null;
  const claims = await deps.sessions.verify(token);
  if (!claims) return null;
  const em = ctx.state.em;
  const [row] = await executePrepared<Record<string, unknown>>(em, 'session_user', sessionUserSql(em), [
    claims.userId,
    claims.version,
    claims.sessionId,
  ]);
  return row ? em.map(User, row) : null;
}

let sessionLookup: string | undefined;

/** One prepared statement per cookie request, like the key lookup below. */
function sessionUserSql(em: EntityManager): string {
  sessionLookup ??= `select ${columnsOf(em, 'User')} from users where "id" = ? and "session_version" = ? and ${SESSION_NOT_ENDED} limit 1`;
  return sessionLookup;
}

/** Named, not `*`: a prepared statement's result must keep its shape when a migration adds a column. */
const columnsOf = (em: EntityManager, entity: string) =>
  em
    .getMetadata()
    .get(entity)
    .props.flatMap((prop) => prop.fieldNames.map((name) => `"${name}"`))
    .join(', ');

function assertEnabled(project: Project): Project {
  if (project.disabled) {
    throw new ApiError(403, 'PROJECT_DISABLED', `This project is suspended: ${project.disabledReason ?? 'no reason given'}`, {
      details: { disabledReason: project.disabledReason ?? null },
      suggestion:
        "The project's owners were emailed why; the operators of this deployment can reinstate it. Members can still read it in the dashboard.",
    });
  }
  return project;
}

async function projectByKey(ctx: AppContext, key: string, kind: 'secret' | 'public'): Promise<Project> {
  const prefix = kind === 'secret' ? 'sk_' : 'pk_';
  if (!key.startsWith(prefix)) {
    throw invalidKey(
      kind === 'secret'
        ? 'This endpoint requires a secret key (sk_…); public keys only work on /v1/track'
        : 'This endpoint requires a public key (pk_…)',
    );
  }
  const [row] = await executePrepared<Record<string, unknown>>(
    ctx.state.em,
    `project_by_${kind}_key`,
    projectByDigest(ctx.state.em, kind),
    [digest(key)],
  );
  if (!row) throw invalidKey('Invalid API key');
  return assertEnabled(ctx.state.em.map(Project, row));
}

const lookups = new Map<'secret' | 'public', string>();

/**
 * Every API request runs this lookup, so it is a prepared statement: a third of the CPU of findOne's query
 * building, and PostgreSQL plans it once per connection. Its columns are named, not `*`, because a prepared
 * statement's result must keep its shape when a migration adds a column.
 */
function projectByDigest(em: EntityManager, kind: 'secret' | 'public'): string {
  let sql = lookups.get(kind);
  if (!sql) {
    sql = `select ${columnsOf(em, 'Project')} from projects where "${kind === 'secret' ? 'secret_key_digest' : 'public_key_digest'}" = ? limit 1`;
    lookups.set(kind, sql);
  }
  return sql;
}

/**
 * A logged-in member may reach resource endpoints with the session cookie and `X-Project-Id`; of a suspended
 * project, everything but what `sends` (docs/security.md).
 */
async function projectByMembership(deps: Deps, ctx: AppContext, sends: boolean): Promise<Project | null> {
  const projectId = ctx.get('x-project-id');
  if (!projectId) return null;
  const user = await sessionUser(deps, ctx);
  if (!user) return null;
  const member = /^[0-9a-f-]{36}$/i.test(projectId) ? await ctx.state.em.findOne(ProjectMember, { projectId, userId: user.id }) : null;
  if (!member || !isActiveMember(member, user)) throw forbidden('You are not a member of this project');
  const project = await ctx.state.em.findOneOrFail(Project, { id: projectId });
  ctx.state.user = user;
  ctx.state.role = member.role;
  return sends ? assertEnabled(project) : project;
}

/** The operators' token (docs/operators.md), compared in constant time; /admin does not exist without one (src/modules/admin). */
function assertAdmin(deps: Deps, ctx: AppContext): void {
  const expected = deps.config.ADMIN_TOKEN;
  const given = bearer(ctx);
  if (!expected || !given || !sameSecret(given, expected)) {
    throw unauthorized("Send Authorization: Bearer <ADMIN_TOKEN>, the token of this deployment's operators");
  }
}

export async function authenticate(deps: Deps, ctx: AppContext, kind: AuthKind, sends = false): Promise<void> {
  if (kind === 'none') return;
  if (kind === 'admin') return assertAdmin(deps, ctx);
  if (kind === 'optional-session') {
    ctx.state.user = (await sessionUser(deps, ctx)) ?? undefined;
    return;
  }
  if (kind === 'session') {
    const user = await sessionUser(deps, ctx);
    if (!user) throw unauthorized('Log in first: this endpoint needs a session cookie');
    ctx.state.user = user;
    return;
  }
  const key = bearer(ctx);
  if (key) {
    ctx.state.project = await projectByKey(ctx, key, kind === 'public' ? 'public' : 'secret');
    return;
  }
  if (kind === 'secretKey') throw invalidKey('Missing API key: this endpoint takes the secret key as Authorization: Bearer sk_…');
  const viaSession = kind === 'secret' ? await projectByMembership(deps, ctx, sends) : null;
  if (!viaSession) throw invalidKey('Missing API key');
  ctx.state.project = viaSession;
}
