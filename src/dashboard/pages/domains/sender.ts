/** A sender address as the forms edit it: the part before @ typed, the domain chosen (SenderAddress). */
export interface Sender {
  local: string;
  domain: string;
}

/** Splits a stored address at its last @ (an address without one keeps it all as the part before @). */
export function senderOf(address: string | null | undefined): Sender {
  const text = address ?? '';
  const at = text.lastIndexOf('@');
  return at > 0 ? { local: text.slice(0, at), domain: text.slice(at + 1) } : { local: text, domain: '' };
}
