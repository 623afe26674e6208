/**
 * Postwire's design tokens: the one source of the colours, type scale, spacing, radii and shadows of every
 * screen a person sees: the dashboard (src/dashboard, through its Vite build), the public subscription and
 * preference pages (src/modules/preferences) and the development mail and webhook captures (scripts/lib).
 * Each becomes a CSS custom property (`--text`, `--space-4`, …); pages style with the properties only, so a
 * page added anywhere inherits the light and the dark theme.
 *
 * Contrast (WCAG AA, checked by axe-core in the browser tests): text, muted text, links and the status colours
 * reach 4.5:1 on `surface` and `bg` in both themes; white on `accent-solid` and `danger-solid` reaches 4.5:1.
 */

/** Colours per theme: the same names in both, so a rule written once works in either. */
const light = {
  bg: '#f7f7f8',
  surface: '#ffffff',
  'surface-2': '#f3f3f5',
  'surface-hover': '#f0f0f3',
  border: '#e4e4e8',
  'border-strong': '#8b8b96',
  text: '#17171c',
  muted: '#5b5b66',
  accent: '#4f46e5',
  'accent-hover': '#4338ca',
  'accent-solid': '#4f46e5',
  'accent-soft': '#eef0ff',
  'accent-soft-text': '#3730a3',
  'on-accent': '#ffffff',
  good: '#047857',
  'good-soft': '#e8f7f0',
  warn: '#9a5b00',
  'warn-soft': '#fdf4e3',
  danger: '#b42318',
  'danger-solid': '#c0261b',
  'danger-soft': '#fdf0ee',
  info: '#175cd3',
  'info-soft': '#edf3fe',
  focus: '#f59e0b',
  'chart-1': '#4f46e5',
  'chart-2': '#0e9384',
  'chart-3': '#c4320a',
  'chart-4': '#9e77ed',
  shadow: '0 1px 2px rgba(16, 16, 24, 0.06), 0 1px 3px rgba(16, 16, 24, 0.08)',
  'shadow-lg': '0 12px 32px rgba(16, 16, 24, 0.12)',
  'color-scheme': 'light',
} as const;

const dark: Record<keyof typeof light, string> = {
  bg: '#0c0c10',
  surface: '#141419',
  'surface-2': '#1b1b22',
  'surface-hover': '#202029',
  border: '#2a2a34',
  'border-strong': '#6c6c7a',
  text: '#ededf2',
  muted: '#a3a3b2',
  accent: '#a5b4fc',
  'accent-hover': '#c7d2fe',
  'accent-solid': '#4f46e5',
  'accent-soft': '#1e1b4b',
  'accent-soft-text': '#c7d2fe',
  'on-accent': '#ffffff',
  good: '#4ade80',
  'good-soft': '#0f2a1c',
  warn: '#fbbf24',
  'warn-soft': '#2b2110',
  danger: '#fca5a5',
  'danger-solid': '#c0261b',
  'danger-soft': '#2f1414',
  info: '#93c5fd',
  'info-soft': '#13223b',
  focus: '#f59e0b',
  'chart-1': '#a5b4fc',
  'chart-2': '#2dd4bf',
  'chart-3': '#fb923c',
  'chart-4': '#d8b4fe',
  shadow: '0 1px 2px rgba(0, 0, 0, 0.5)',
  'shadow-lg': '0 12px 32px rgba(0, 0, 0, 0.6)',
  'color-scheme': 'dark',
};

/** What does not change with the theme. The type scale steps by about 1.2 from a 14 px body. */
const scale = {
  font: "'Inter Variable', Inter, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  mono: "ui-monospace, 'SFMono-Regular', 'JetBrains Mono', Menlo, Consolas, monospace",
  'text-xs': '0.75rem',
  'text-sm': '0.8125rem',
  'text-base': '0.875rem',
  'text-md': '1rem',
  'text-lg': '1.125rem',
  'text-xl': '1.375rem',
  'text-2xl': '1.75rem',
  'leading-tight': '1.25',
  'leading-normal': '1.5',
  'weight-medium': '500',
  'weight-semibold': '600',
  'space-1': '0.25rem',
  'space-2': '0.5rem',
  'space-3': '0.75rem',
  'space-4': '1rem',
  'space-5': '1.25rem',
  'space-6': '1.5rem',
  'space-8': '2rem',
  'space-10': '2.5rem',
  'radius-sm': '6px',
  radius: '8px',
  'radius-lg': '12px',
  'radius-full': '999px',
  'sidebar-width': '15rem',
  'content-max': '96rem',
} as const;

export type ColorToken = keyof typeof light;
export type ScaleToken = keyof typeof scale;

const block = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([name, value]) => (name === 'color-scheme' ? `color-scheme:${value};` : `--${name}:${value};`))
    .join('');

/**
 * The tokens as CSS: light by default, dark when the system prefers it, and either when `data-theme` on
 * <html> says so (the dashboard's theme switch).
 */
export function tokensCss(): string {
  return [
    `:root{${block(scale)}${block(light)}}`,
    `@media (prefers-color-scheme: dark){:root:not([data-theme='light']){${block(dark)}}}`,
    `:root[data-theme='dark']{${block(dark)}}`,
  ].join('\n');
}

/**
 * The brand mark: an envelope whose flap runs on as a wire, on the accent. An SVG string, for server-rendered
 * pages; the dashboard draws the same paths (src/dashboard/ui/brand.tsx reads `MARK_PATHS`).
 */
export const MARK_PATHS = {
  envelope: 'M7 9.5A1.5 1.5 0 0 1 8.5 8h11A1.5 1.5 0 0 1 21 9.5v9a1.5 1.5 0 0 1-1.5 1.5h-11A1.5 1.5 0 0 1 7 18.5z',
  flap: 'M7.5 9l6.5 5 6.5-5',
  wire: 'M3 14h2.5M4 17.5h2',
} as const;

export function markSvg(size = 28): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 28 28" aria-hidden="true">` +
    `<rect width="28" height="28" rx="7" fill="${light.accent}"/>` +
    `<g fill="none" stroke="#fff" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round">` +
    `<path d="${MARK_PATHS.envelope}"/><path d="${MARK_PATHS.flap}"/><path d="${MARK_PATHS.wire}"/></g></svg>`
  );
}
