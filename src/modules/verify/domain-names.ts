/** `a.example.com` → [`a.example.com`, `example.com`]: the name and its parents, never a bare top-level label. */
export function selfAndParents(domain: string): string[] {
  const labels = domain.split('.');
  return labels.slice(0, -1).map((_label, i) => labels.slice(i).join('.'));
}
