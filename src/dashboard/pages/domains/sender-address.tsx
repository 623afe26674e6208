import { useEffect } from 'preact/hooks';
import { api, call, type ApiFailure } from '../../api/client';
import { href } from '../../router';
import { useProject } from '../../session';
import { ErrorNote, Notice } from '../../ui/feedback';
import { Select, TextInput } from '../../ui/form';
import { useLoad } from '../../ui/use-load';
import type { Sender } from './sender';
import './domains.css';

interface Props {
  label: string;
  sender: Sender;
  /**
   * Only the part that changed: the default domain arrives after the domains load, maybe after the part
   * before @ was typed, and must not put back the empty one of the render that asked for the domains.
   */
  onSender: (change: Partial<Sender>) => void;
  /** The API's field name of the whole address, so its refusal shows beside the part typed. */
  name: string;
  error: ApiFailure | null;
  hint?: string;
  placeholder?: string;
}

/**
 * A sender address on one of the project's verified domains: the part before @ typed, the domain chosen (a
 * stored domain no longer verified stays offered, so opening a record never changes it). Used wherever a From
 * is set: campaigns and templates.
 */
export function SenderAddress({ label, sender, onSender, name, error, hint, placeholder }: Props) {
  const project = useProject();
  const domains = useLoad(
    () => call(api.GET('/domains/project/{projectId}', { params: { path: { projectId: project.id } } })),
    [project.id],
  );
  const verified = (domains.data ?? []).filter((d) => d.verified).map((d) => d.domain);
  const choices = sender.domain && !verified.includes(sender.domain) ? [...verified, sender.domain] : verified;
  const first = verified[0];
  useEffect(() => {
    if (!sender.domain && first) onSender({ domain: first });
  }, [first]);
  return (
    <>
      {domains.data && verified.length === 0 ? (
        <Notice tone="warn">
          No verified sender domain yet: <a href={href('/domains')}>add and verify one</a> before sending.
        </Notice>
      ) : null}
      <ErrorNote error={domains.error} />
      <div class="sender">
        <TextInput
          label={label}
          name={name}
          value={sender.local}
          onValue={(local) => onSender({ local })}
          error={error}
          placeholder={placeholder}
          hint={hint}
        />
        <Select
          label="Sender domain"
          value={sender.domain}
          options={choices.map((d) => ({ value: d, label: `@${d}` }))}
          onValue={(domain) => onSender({ domain })}
        />
      </div>
    </>
  );
}
