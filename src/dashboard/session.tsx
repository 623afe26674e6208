import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useState } from 'preact/hooks';
import { api, call, useProjectHeader, ApiFailure } from './api/client';
import type { Answer } from './api/types';
import { ErrorNote } from './ui/feedback';

export type User = Answer<'/users/@me', 'get'>;
export type Project = Answer<'/users/@me/projects/{id}', 'patch'>;
export type Role = NonNullable<Project['role']>;

export interface Session {
  user: User;
  projects: Project[];
  project: Project | null;
  /** Reloads the user and the projects, e.g. after a rename or a new project. */
  refresh: () => Promise<void>;
  choose: (projectId: string) => void;
  logout: () => Promise<void>;
}

const SessionContext = createContext<Session | null>(null);
const CHOSEN = 'postwire.project';

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a logged-in page');
  return session;
}

/** The project in use; pages under a project are only rendered when there is one. */
export function useProject(): Project & { role: Role } {
  const { project } = useSession();
  if (!project) throw new Error('useProject without a project');
  return { ...project, role: project.role ?? 'MEMBER' };
}

/** What docs/roles.md lets a role do, so the pages hide what the API would refuse. */
export const can = {
  manage: (role: Role) => role === 'OWNER' || role === 'ADMIN',
  own: (role: Role) => role === 'OWNER',
};

type State =
  | { status: 'loading' }
  | { status: 'anonymous' }
  | { status: 'failed'; error: ApiFailure }
  | { status: 'in'; user: User; projects: Project[] };

export function SessionProvider({ children, anonymous }: { children: preact.ComponentChildren; anonymous: preact.ComponentChildren }) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [chosen, setChosen] = useState<string | null>(() => localStorage.getItem(CHOSEN));

  const refresh = useCallback(async () => {
    try {
      // GET /auth/session answers null rather than 401 when nobody is logged in: a logged-out visit prints no error.
      const { user } = await call(api.GET('/auth/session'));
      if (!user) return setState({ status: 'anonymous' });
      const projects = await call(api.GET('/users/@me/projects'));
      setState({ status: 'in', user, projects });
    } catch (err) {
      if (err instanceof ApiFailure && err.status === 401) setState({ status: 'anonymous' });
      else setState({ status: 'failed', error: err instanceof ApiFailure ? err : new ApiFailure(0, 'ERROR', String(err)) });
    }
  }, []);

  useEffect(() => {
    const reload = () => void refresh();
    reload();
    addEventListener('postwire:session', reload);
    return () => removeEventListener('postwire:session', reload);
  }, [refresh]);

  if (state.status === 'loading')
    return (
      <p class="loading" role="status">
        Loading…
      </p>
    );
  if (state.status === 'anonymous') return <>{anonymous}</>;
  if (state.status === 'failed') {
    return (
      <main id="main" class="auth">
        <div class="card auth-card">
          <ErrorNote error={state.error} />
          <button type="button" onClick={() => void refresh()}>
            Try again
          </button>
        </div>
      </main>
    );
  }

  const project = state.projects.find((p) => p.id === chosen) ?? state.projects[0] ?? null;
  useProjectHeader(project?.id ?? null);
  const session: Session = {
    user: state.user,
    projects: state.projects,
    project,
    refresh,
    choose: (id) => {
      localStorage.setItem(CHOSEN, id);
      setChosen(id);
    },
    logout: async () => {
      await call(api.GET('/auth/logout'));
      localStorage.removeItem(CHOSEN);
      setState({ status: 'anonymous' });
    },
  };
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

/** Tells the session to reload (after logging in, signing up, or changing projects). */
export const sessionChanged = () => dispatchEvent(new Event('postwire:session'));
