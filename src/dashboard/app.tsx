import { match, useRoute, type Route } from './router';
import { SessionProvider, useSession } from './session';
import { Layout } from './ui/layout';
import { deploymentPages, projectPages } from './pages';
import { Login } from './pages/auth/login';
import { Signup } from './pages/auth/signup';
import { VerifyEmail } from './pages/auth/verify-email';
import { RequestReset, SetPassword } from './pages/auth/password';
import { FirstProject } from './pages/project/first-project';
import { NotFound } from './pages/not-found';

/** Pages reached from a mailed link, whether or not someone is logged in on this browser. */
const linkPages: Record<string, preact.FunctionComponent<{ query: URLSearchParams }>> = {
  '/verify-email': VerifyEmail,
  '/reset-password': SetPassword,
  '/accept-invite': SetPassword,
};

function Anonymous({ route }: { route: Route }) {
  if (route.path === '/signup') return <Signup />;
  if (route.path === '/forgot-password') return <RequestReset />;
  return <Login />;
}

function ProjectApp({ route }: { route: Route }) {
  const { project } = useSession();
  if (!project) return <FirstProject />;
  const nav = projectPages.filter((p) => p.nav).map((p) => ({ path: p.path, label: p.nav!, icon: p.icon, group: p.group }));
  for (const page of projectPages) {
    const params = match(page.path, route.path);
    if (params) {
      const Page = page.component;
      return (
        <Layout nav={nav} active={route.path}>
          <Page key={`${project.id}${route.path}`} params={params} query={route.query} />
        </Layout>
      );
    }
  }
  return (
    <Layout nav={nav} active={route.path}>
      <NotFound />
    </Layout>
  );
}

export function App() {
  const route = useRoute();
  const LinkPage = linkPages[route.path];
  if (LinkPage) return <LinkPage query={route.query} />;
  for (const page of deploymentPages) {
    const params = match(page.path, route.path);
    if (params) return <page.component params={params} query={route.query} />;
  }
  return (
    <SessionProvider anonymous={<Anonymous route={route} />}>
      <ProjectApp route={route} />
    </SessionProvider>
  );
}
