import { Brand } from '../../ui/brand';
import { ThemeSwitch } from '../../ui/theme';

/** The centred card the pages without a session share, under the brand. */
export function AuthFrame({ title, children }: { title: string; children: preact.ComponentChildren }) {
  document.title = `${title} · Postwire`;
  return (
    <main id="main" class="auth">
      <Brand size={36} />
      <div class="card auth-card">
        <h1>{title}</h1>
        {children}
      </div>
      <ThemeSwitch />
    </main>
  );
}
