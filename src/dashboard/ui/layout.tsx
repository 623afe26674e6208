import { useState } from 'preact/hooks';
import type { IconNode } from 'lucide';
import { href } from '../router';
import { useSession } from '../session';
import { Brand } from './brand';
import { ChevronLeft, Icon, LogOut, Menu, TriangleAlert, X } from './icons';
import { ThemeSwitch } from './theme';

export interface NavItem {
  path: string;
  label: string;
  icon?: IconNode;
  group?: string;
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

/** The sidebar's items in their groups: an item without a group of its own stays in the one above it. */
function groupsOf(nav: NavItem[]): Array<{ title: string | undefined; items: NavItem[] }> {
  const groups: Array<{ title: string | undefined; items: NavItem[] }> = [];
  for (const item of nav) {
    if (groups.length === 0 || item.group) groups.push({ title: item.group, items: [] });
    groups[groups.length - 1]!.items.push(item);
  }
  return groups;
}

const DOT: IconNode = [['circle', { cx: '12', cy: '12', r: '3' }]];

/**
 * On every page of a suspended project: why, and what it means (docs/security.md). Its keys are refused and
 * its mail waits; the dashboard still reads everything.
 */
function SuspensionBanner() {
  const { project } = useSession();
  if (!project?.disabled) return null;
  return (
    <div class="error-note suspended-banner" role="alert">
      <Icon icon={TriangleAlert} />
      <div class="note-body">
        <strong>This project is suspended: it sends nothing.</strong>
        <p>{project.disabledReason ?? 'No reason was given.'}</p>
        <p>
          Its API keys are refused, and its queued emails, campaigns and automation emails wait until an operator of this deployment
          reinstates it; nothing is lost. <a href={href('/security')}>Security</a>
        </p>
      </div>
    </div>
  );
}

export function Layout({ nav, active, children }: { nav: NavItem[]; active: string; children: preact.ComponentChildren }) {
  const { user, logout } = useSession();
  const [open, setOpen] = useState(false);
  const current = (path: string) => active === path || (path !== '/' && active.startsWith(`${path}/`));
  return (
    <div class="shell">
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand-link" href={href('/')} aria-label="Postwire, overview">
          <Brand size={24} />
        </a>
        <button type="button" class="menu-toggle" aria-expanded={open} aria-controls="sidebar" onClick={() => setOpen(!open)}>
          <Icon icon={open ? X : Menu} />
          Menu
        </button>
      </header>
      <div id="sidebar" class={`sidebar${open ? ' open' : ''}`}>
        <div class="sidebar-head">
          <a class="brand-link wide" href={href('/')} aria-label="Postwire, overview">
            <Brand />
          </a>
          <ProjectSwitcher />
        </div>
        <nav id="nav" aria-label="Main">
          {groupsOf(nav).map((group, i) => (
            <div key={group.title ?? i} class="nav-section">
              {/* A visual heading only: the links say where they go, and a label would compete with the forms' own. */}
              {group.title ? (
                <p class="nav-title" aria-hidden="true">
                  {group.title}
                </p>
              ) : null}
              <ul class="nav-group">
                {group.items.map((item) => (
                  <li key={item.path}>
                    <a href={href(item.path)} aria-current={current(item.path) ? 'page' : undefined} onClick={() => setOpen(false)}>
                      <Icon icon={item.icon ?? DOT} />
                      {item.label}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        <div class="sidebar-foot">
          <span class="user">{user.email}</span>
          <a class="operators-link" href={href('/operators')}>
            Operators of this deployment
          </a>
          <div class="sidebar-actions">
            <ThemeSwitch />
            <button type="button" onClick={() => void logout()}>
              <Icon icon={LogOut} />
              Log out
            </button>
          </div>
        </div>
      </div>
      <main id="main" tabIndex={-1}>
        <div class="content">
          <SuspensionBanner />
          {children}
        </div>
      </main>
    </div>
  );
}

/**
 * A page's title (the document's too), what it is for in a line, its main actions, and where it belongs
 * (`back`: the list it is part of).
 */
export function PageHeader({
  title,
  subtitle,
  back,
  children,
}: {
  title: string;
  subtitle?: preact.ComponentChildren;
  back?: { path: string; label: string };
  children?: preact.ComponentChildren;
}) {
  document.title = `${title} · Postwire`;
  return (
    <>
      {back ? (
        <p class="crumbs">
          <a href={href(back.path)}>
            <Icon icon={ChevronLeft} />
            {back.label}
          </a>
        </p>
      ) : null}
      <div class="page-header">
        <div class="page-title">
          <h1>{title}</h1>
          {subtitle ? <p class="page-subtitle">{subtitle}</p> : null}
        </div>
        {children ? <div class="actions">{children}</div> : null}
      </div>
    </>
  );
}

/** A titled block of a page, with an icon before its title when given. */
export function Section({
  title,
  icon,
  children,
  class: className,
}: {
  title: string;
  icon?: IconNode;
  children: preact.ComponentChildren;
  class?: string;
}) {
  return (
    <section class={`card${className ? ` ${className}` : ''}`} aria-label={title}>
      <h2>
        {icon ? <Icon icon={icon} /> : null}
        {title}
      </h2>
      {children}
    </section>
  );
}
