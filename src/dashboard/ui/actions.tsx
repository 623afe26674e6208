import { useState } from 'preact/hooks';

/** A button whose action runs only after a second, explicit confirmation (rotate keys, delete, reset). */
export function ConfirmButton({
  label,
  confirm,
  onConfirm,
  danger = false,
  primary = false,
  disabled = false,
}: {
  label: string;
  confirm: string;
  onConfirm: () => void | Promise<void>;
  danger?: boolean;
  /** The page's main action (Send now): the filled button. */
  primary?: boolean;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" class={danger ? 'danger' : primary ? 'primary' : ''} disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span class="confirm" role="group" aria-label={confirm}>
      <span>{confirm}</span>
      <button
        type="button"
        class={danger ? 'danger' : 'primary'}
        onClick={() => {
          setAsking(false);
          void onConfirm();
        }}
      >
        Yes, {label.toLowerCase()}
      </button>
      <button type="button" onClick={() => setAsking(false)} autoFocus>
        Cancel
      </button>
    </span>
  );
}

/** A button that copies `value`; screen readers hear "Copy {label}". */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      aria-label={`Copy ${label}`}
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => setCopied(true));
        setTimeout(() => setCopied(false), 1500);
      }}
    >
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

/** Text to copy (a key, a DNS record) with a button that copies it. */
export function CopyText({ value, label }: { value: string; label: string }) {
  return (
    <span class="copy">
      <code>{value}</code>
      <CopyButton value={value} label={label} />
    </span>
  );
}

/** Several lines to copy whole: a configuration snippet. */
export function CopyBlock({ value, label }: { value: string; label: string }) {
  return (
    <div class="copy-block">
      <pre aria-label={label}>{value}</pre>
      <CopyButton value={value} label={label} />
    </div>
  );
}
