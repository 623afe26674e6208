import { MARK_PATHS } from '../../design/tokens';

/** The brand mark (src/design/tokens.ts): an envelope whose flap runs on as a wire, on the accent. */
export function Mark({ size = 28 }: { size?: number }) {
  return (
    <svg class="mark" width={size} height={size} viewBox="0 0 28 28" aria-hidden="true" focusable="false">
      <rect width="28" height="28" rx="7" fill="var(--accent-solid)" />
      <g fill="none" stroke="#fff" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round">
        <path d={MARK_PATHS.envelope} />
        <path d={MARK_PATHS.flap} />
        <path d={MARK_PATHS.wire} />
      </g>
    </svg>
  );
}

/** The mark and the wordmark, as the product's name for screen readers. */
export function Brand({ size = 28 }: { size?: number }) {
  return (
    <span class="brand">
      <Mark size={size} />
      <span class="wordmark">Postwire</span>
    </span>
  );
}
