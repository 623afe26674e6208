import { href } from '../../router';
import { Brand } from '../../ui/brand';
import { ThemeSwitch } from '../../ui/theme';

/** The operators' pages stand outside any project and need no user account: the brand, the way back, the content. */
export function OperatorsFrame({ children }: { children: preact.ComponentChildren }) {
  return (
    <main id="main" class="operators-frame">
      <div class="operators-bar">
        <a class="brand-link" href={href('/')} aria-label="Postwire, back to the dashboard">
          <Brand size={28} />
        </a>
        <ThemeSwitch />
      </div>
      <div class="content">{children}</div>
    </main>
  );
}
