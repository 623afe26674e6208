import { useEffect, useState } from 'preact/hooks';
import { api, call, type ApiFailure } from '../../api/client';
import { href } from '../../router';
import { ErrorNote } from '../../ui/feedback';
import { AuthFrame } from './frame';
import { PasswordForm } from './password';

/**
 * Opened from a verification or invitation email: posts its token once, then says how it went. The link
 * verifies only in a session of its own account; elsewhere (403) the holder of the mail sets a password with
 * it instead, which makes the account theirs (docs/account-emails.md "Verification").
 */
export function VerifyEmail({ query }: { query: URLSearchParams }) {
  const token = query.get('token') ?? '';
  const [state, setState] = useState<'working' | 'done' | ApiFailure>('working');
  useEffect(() => {
    call(api.POST('/auth/verify-email', { body: { token } })).then(
      () => setState('done'),
      (err: ApiFailure) => setState(err),
    );
  }, [token]);
  if (typeof state === 'object' && state.status === 403) {
    return (
      <AuthFrame title="Set a password to verify">
        <p>
          This link verifies the address only where its account is logged in. Choose a password for the account instead: this proves that
          the address is yours, and logs out every other session of the account.
        </p>
        <PasswordForm token={token} />
        <p>
          Or <a href={href('/login')}>log in</a> to the account and open the link again.
        </p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Verify your email">
      {state === 'working' ? <p role="status">Verifying…</p> : null}
      {state === 'done' ? (
        <p role="status">
          Your email address is verified. <a href={href('/')}>Continue to Postwire</a>
        </p>
      ) : null}
      {typeof state === 'object' ? (
        <>
          <ErrorNote error={state} />
          <p>
            Log in and ask for a new link from the overview. <a href={href('/login')}>Log in</a>
          </p>
        </>
      ) : null}
    </AuthFrame>
  );
}
