import { useEffect, useState } from 'preact/hooks';
import { api, call, type ApiFailure } from '../../api/client';
import { href } from '../../router';
import { ErrorNote } from '../../ui/feedback';
import { AuthFrame } from './frame';

/** Opened from the verification email: posts its token once, then says how it went. */
export function VerifyEmail({ query }: { query: URLSearchParams }) {
  const token = query.get('token') ?? '';
  const [state, setState] = useState<'working' | 'done' | ApiFailure>('working');
  useEffect(() => {
    call(api.POST('/auth/verify-email', { body: { token } })).then(
      () => setState('done'),
      (err: ApiFailure) => setState(err),
    );
  }, [token]);
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
