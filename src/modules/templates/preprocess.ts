/**
 * Rewrites the two template notations Liquid lacks into plain Liquid, inside `{{ … }}` output tags only:
 * - `a ?? b` becomes `a | coalesce: b` (the fallback applies when `a` is missing or null);
 * - a bare key with spaces, `{{first name}}`, becomes `{{["first name"]}}`.
 * Quoted strings and `{% raw %}` blocks are left alone, and no newline is added or removed, so Liquid's
 * line numbers in error messages still point at the text the user wrote.
 */

import { TemplateError } from './template-error';

export const COALESCE_FILTER = 'coalesce';

const OUTPUT_OR_RAW = /\{\{|\{%-?\s*raw\s*-?%\}/g;
const END_RAW = /\{%-?\s*endraw\s*-?%\}/g;
/** Words separated by spaces or tabs, as CSV headers produce; dots, quotes and brackets mean Liquid syntax. */
const SPACED_KEY = /^[\p{L}\p{N}_-]+(?:[ \t]+[\p{L}\p{N}_-]+)+$/u;

/** Positions of `token` in `text` that are outside quotes and brackets. */
function topLevelIndexes(text: string, token: string): number[] {
  const found: number[] = [];
  let quote: string | null = null;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '[' || c === '(') {
      depth++;
    } else if (c === ']' || c === ')') {
      depth = Math.max(0, depth - 1);
    } else if (depth === 0 && text.startsWith(token, i)) {
      found.push(i);
      i += token.length - 1;
    }
  }
  return found;
}

/** The end of the output tag opened before `from`: the index of its `}}`, skipping quoted strings. */
function closingBraces(source: string, from: number): number {
  let quote: string | null = null;
  for (let i = from; i < source.length - 1; i++) {
    const c = source[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '}' && source[i + 1] === '}') {
      return i;
    }
  }
  return -1;
}

function quoteSpacedKey(operand: string): string {
  const filterAt = topLevelIndexes(operand, '|')[0] ?? operand.length;
  const head = operand.slice(0, filterAt);
  const key = head.trim();
  if (!SPACED_KEY.test(key)) return operand;
  const lead = head.slice(0, head.indexOf(key));
  const trail = head.slice(lead.length + key.length);
  return `${lead}["${key}"]${trail}${operand.slice(filterAt)}`;
}

function rewriteExpression(expression: string, line: () => number): string {
  const cuts = topLevelIndexes(expression, '??');
  const operands = [...cuts, expression.length].map((end, i) => expression.slice(i === 0 ? 0 : cuts[i - 1]! + 2, end));
  if (cuts.length > 0 && operands.some((o) => o.trim() === '')) {
    throw new TemplateError(line(), `"??" needs a value on both sides in {{${expression}}}`);
  }
  const [first, ...fallbacks] = operands.map(quoteSpacedKey);
  return [first, ...fallbacks.map((f) => ` | ${COALESCE_FILTER}:${f}`)].join('');
}

export function preprocessTemplate(source: string): string {
  let out = '';
  let at = 0;
  OUTPUT_OR_RAW.lastIndex = 0;
  for (let match = OUTPUT_OR_RAW.exec(source); match; match = OUTPUT_OR_RAW.exec(source)) {
    const open = match.index + match[0].length;
    if (match[0] !== '{{') {
      END_RAW.lastIndex = open;
      const end = END_RAW.exec(source);
      OUTPUT_OR_RAW.lastIndex = end ? end.index + end[0].length : source.length;
      continue;
    }
    const close = closingBraces(source, open);
    if (close < 0) break;
    const trimLeft = source[open] === '-' ? 1 : 0;
    const trimRight = source[close - 1] === '-' && close - 1 >= open + trimLeft ? 1 : 0;
    const inner = source.slice(open + trimLeft, close - trimRight);
    const line = () => source.slice(0, open).split('\n').length;
    out += source.slice(at, open + trimLeft) + rewriteExpression(inner, line);
    at = close - trimRight;
    OUTPUT_OR_RAW.lastIndex = close + 2;
  }
  return out + source.slice(at);
}
