import { useState } from 'preact/hooks';
import { Icon, Monitor, Moon, Sun } from './icons';

type Theme = 'system' | 'light' | 'dark';
const KEY = 'postwire.theme';
const THEMES: Array<{ value: Theme; label: string; icon: typeof Sun }> = [
  { value: 'system', label: 'System theme', icon: Monitor },
  { value: 'light', label: 'Light theme', icon: Sun },
  { value: 'dark', label: 'Dark theme', icon: Moon },
];

const stored = (): Theme => {
  const value = localStorage.getItem(KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
};

/** Applies the saved theme to <html> (the tokens read `data-theme`); called once before the first render. */
export function applyTheme(theme: Theme = stored()): void {
  if (theme === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.dataset.theme = theme;
}

/** System, light or dark: kept in this browser. */
export function ThemeSwitch() {
  const [theme, setTheme] = useState(stored);
  const choose = (value: Theme) => {
    localStorage.setItem(KEY, value);
    applyTheme(value);
    setTheme(value);
  };
  return (
    <div class="theme-switch" role="group" aria-label="Theme">
      {THEMES.map((t) => (
        <button
          key={t.value}
          type="button"
          class="icon-button"
          aria-pressed={theme === t.value}
          title={t.label}
          onClick={() => choose(t.value)}
        >
          <Icon icon={t.icon} label={t.label} size={15} />
        </button>
      ))}
    </div>
  );
}
