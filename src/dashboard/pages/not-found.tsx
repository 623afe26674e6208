import { href } from '../router';
import { PageHeader } from '../ui/layout';

export function NotFound() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        Nothing lives at this address. <a href={href('/')}>Back to the overview</a>.
      </p>
    </>
  );
}
