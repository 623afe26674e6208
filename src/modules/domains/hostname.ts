import { domainToASCII } from 'node:url';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const MAX_LENGTH = 253;

/**
 * The ASCII, lowercase form of a sender domain name (internationalized names become `xn--` labels), or null
 * when it is not a fully qualified host name: at least two labels of letters, digits and inner hyphens, and
 * a top-level label that is not numeric (so IP addresses are refused).
 */
export function normalizeDomainName(input: string): string | null {
  const trimmed = input.trim().replace(/\.$/, '');
  if (!/^[^\s/:@?#*]+$/u.test(trimmed)) return null;
  const ascii = domainToASCII(trimmed).toLowerCase();
  if (!ascii || ascii.length > MAX_LENGTH) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  return /^[0-9]+$/.test(labels[labels.length - 1]!) ? null : ascii;
}

/** The normalized domain of an email address (the part after the last `@`), or null. */
export function domainOfAddress(address: string): string | null {
  const at = address.lastIndexOf('@');
  return at > 0 ? normalizeDomainName(address.slice(at + 1)) : null;
}
