import { useState } from 'preact/hooks';
import { href } from '../router';
import { useSession } from '../session';

export interface NavItem {
  path: string;
  label: string;
}

/** The project switcher: every page acts on the project chosen here. */
function ProjectSwitcher() {
  const { projects, project, choose } = useSession();
  if (projects.length === 0) return null;
  return (
    <label class="switcher">
      <span class="sr-only">Project</span>
      <select value={project?.id} onChange={(e) => choose(e.currentTarget.value)} aria-label="Project">
        {projects.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * On every page of a suspended project: why, and what it means (docs/security.md). Its keys are refused and
 * its mail waits; the dashboard still reads everything.
 */
function SuspensionBanner() {
  const { project } = useSession();
  if (!project?.disabled) return null;
  return (
    <div class="error-note suspended-banner" role="alert">
      <strong>This project is suspended: it sends nothing.</strong>
      <p>{project.disabledReason ?? 'No reason was given.'}</p>
      <p>
        Its API keys are refused, and its queued emails, campaigns and automation emails wait until an operator of this deployment
        reinstates it; nothing is lost. <a href={href('/security')}>Security</a>
      </p>
    </div>
  );
}

export function Layout({ nav, active, children }: { nav: NavItem[]; active: string; children: preact.ComponentChildren }) {
  const { user, logout } = useSession();
  const [open, setOpen] = useState(false);
  return (
    <div class="shell">
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href={href('/')}>
          Postwire
        </a>
        <ProjectSwitcher />
        <button type="button" class="menu-toggle" aria-expanded={open} aria-controls="nav" onClick={() => setOpen(!open)}>
          Menu
        </button>
        <span class="user muted">{user.email}</span>
        <button type="button" onClick={() => void logout()}>
          Log out
        </button>
      </header>
      <nav id="nav" class={`sidebar${open ? ' open' : ''}`} aria-label="Main">
        <ul>
          {nav.map((item) => (
            <li key={item.path}>
              <a
                href={href(item.path)}
                aria-current={active === item.path || (item.path !== '/' && active.startsWith(`${item.path}/`)) ? 'page' : undefined}
                onClick={() => setOpen(false)}
              >
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <SuspensionBanner />
        {children}
      </main>
    </div>
  );
}

/** A page's title (the document's too) and its main actions. */
export function PageHeader({ title, children }: { title: string; children?: preact.ComponentChildren }) {
  document.title = `${title} · Postwire`;
  return (
    <div class="page-header">
      <h1>{title}</h1>
      {children ? <div class="actions">{children}</div> : null}
    </div>
  );
}

/** A titled block of a page. */
export function Section({ title, children }: { title: string; children: preact.ComponentChildren }) {
  return (
    <section class="card" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}
