import { markSvg, tokensCss } from './tokens';

/**
 * The stylesheet of the pages the server renders without the dashboard's app: the public subscription and
 * preference pages, and the development mail and webhook captures. The same tokens (light and dark, following
 * the system), a narrow `main.narrow` card for the public pages and a wide layout for the tools, tables,
 * badges, buttons and code blocks that look like the dashboard's. Inline in a <style> element: those pages
 * allow no other source.
 */
const BASE = `
*{box-sizing:border-box}
html{font-family:var(--font);font-size:16px;color:var(--text);background:var(--bg);-webkit-font-smoothing:antialiased}
body{margin:0;font-size:var(--text-base);line-height:var(--leading-normal)}
a{color:var(--accent)}
:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
h1{font-size:var(--text-xl);font-weight:600;letter-spacing:-.01em;margin:0 0 var(--space-4)}
h2{font-size:var(--text-md);font-weight:600;margin:var(--space-6) 0 var(--space-3)}
p{margin:0 0 var(--space-3)}
code,pre{font-family:var(--mono);font-size:.92em}
pre{white-space:pre-wrap;word-break:break-word;background:var(--surface-2);border:1px solid var(--border);border-radius:var(--radius);padding:var(--space-3);margin:0}
.top{display:flex;align-items:center;gap:var(--space-3);padding:var(--space-3) var(--space-6);background:var(--surface);border-bottom:1px solid var(--border)}
.top .name{font-weight:650;letter-spacing:-.02em}
.top .tool{color:var(--muted)}
.top nav{margin-left:auto;display:flex;gap:var(--space-4)}
main{padding:var(--space-6);max-width:var(--content-max);margin:0 auto}
main.narrow{max-width:30rem;margin:10vh auto;background:var(--surface);border:1px solid var(--border);border-radius:var(--radius-lg);box-shadow:var(--shadow);padding:var(--space-8)}
.brand-line{display:flex;align-items:center;gap:var(--space-2);margin-bottom:var(--space-6);color:var(--muted);font-size:var(--text-sm)}
.muted,.note{color:var(--muted)}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.note{font-size:var(--text-sm)}
button,.button{font:inherit;font-weight:500;display:inline-flex;align-items:center;gap:var(--space-2);min-height:2.25rem;padding:.4rem .9rem;border-radius:var(--radius);border:1px solid var(--accent-solid);background:var(--accent-solid);color:var(--on-accent);cursor:pointer;text-decoration:none}
button:hover{background:var(--accent-hover);border-color:var(--accent-hover)}
button.secondary{background:var(--surface);color:var(--text);border-color:var(--border)}
button.secondary:hover{background:var(--surface-hover)}
form{display:inline-block;margin:var(--space-2) var(--space-2) 0 0}
form.search{display:flex;gap:var(--space-2);margin:0 0 var(--space-4)}
input,select,textarea{font:inherit;min-height:2.25rem;padding:.4rem .6rem;border:1px solid var(--border-strong);border-radius:var(--radius);background:var(--surface);color:var(--text)}
label{font-weight:500;font-size:var(--text-sm)}
fieldset{border:1px solid var(--border);border-radius:var(--radius);padding:var(--space-3) var(--space-4);margin:0 0 var(--space-4)}
.table-wrap{overflow-x:auto;background:var(--surface);border:1px solid var(--border);border-radius:var(--radius-lg);box-shadow:var(--shadow)}
table{border-collapse:collapse;width:100%}
caption{text-align:left;padding:var(--space-3) var(--space-4);color:var(--muted)}
th,td{text-align:left;padding:.55rem var(--space-4);border-bottom:1px solid var(--border);vertical-align:top}
th{font-size:var(--text-xs);text-transform:uppercase;letter-spacing:.04em;color:var(--muted);background:var(--surface-2)}
tr:last-child td{border-bottom:none}
.badge{display:inline-flex;align-items:center;gap:.35rem;padding:.05rem .5rem;border-radius:var(--radius-full);font-size:var(--text-xs);font-weight:500;white-space:nowrap}
.badge::before{content:'';width:.4rem;height:.4rem;border-radius:50%;background:currentColor}
.good{color:var(--good);background:var(--good-soft)}
.bad{color:var(--danger);background:var(--danger-soft)}
.neutral{color:var(--muted);background:var(--surface-2)}
.card{background:var(--surface);border:1px solid var(--border);border-radius:var(--radius-lg);box-shadow:var(--shadow);padding:var(--space-5);margin-bottom:var(--space-5)}
dl.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:var(--space-2) var(--space-5);margin:0}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0;overflow-wrap:anywhere}
iframe{width:100%;height:28rem;border:1px solid var(--border);border-radius:var(--radius);background:#fff}
details summary{cursor:pointer;color:var(--accent)}
@media (max-width:640px){main{padding:var(--space-4)}main.narrow{margin:0;border:none;border-radius:0;box-shadow:none;min-height:100vh}.top{padding:var(--space-3) var(--space-4)}}
`;

/** The tokens and the base styles, for a <style> element. */
export const pageCss = (): string => `${tokensCss()}\n${BASE}`;

/** The mark and the product's name, as the first line of a public page. */
export const brandLine = (): string => `<div class="brand-line">${markSvg(20)}<span>Postwire</span></div>`;

/** The header bar of a development tool: the mark, its name, and links to its siblings. */
export const toolBar = (tool: string, links: Array<{ href: string; label: string }> = []): string =>
  `<header class="top">${markSvg(24)}<span class="name">Postwire</span><span class="tool">${tool}</span>${
    links.length > 0 ? `<nav>${links.map((l) => `<a href="${l.href}">${l.label}</a>`).join('')}</nav>` : ''
  }</header>`;
