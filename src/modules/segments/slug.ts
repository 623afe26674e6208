/**
 * docs/segments.md "Choices": the name lowercased, spaces to hyphens, other non-word characters removed
 * ("VIP Customers!" → "vip-customers"). A name with nothing left uses the segment's id.
 */
export function segmentSlug(name: string, id: string): string {
  const slug = name
    .toLowerCase()
    .trim()
    .replace(/[^\w\s-]/g, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || id;
}

export const membershipEventName = (name: string, id: string, change: 'entry' | 'exit') => `segment.${segmentSlug(name, id)}.${change}`;
