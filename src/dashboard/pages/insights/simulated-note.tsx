import { api, call } from '../../api/client';
import { useProject } from '../../session';
import { Notice } from '../../ui/feedback';
import { useLoad } from '../../ui/use-load';

/**
 * On a development install (GET /config's `development`): whether mail to the simulator addresses counts in the
 * page's figures. It does not, unless REPUTATION_COUNT_SIMULATED says so (docs/security.md "Simulated mail"),
 * which the security figures report. `alsoOutOf` names the other pages' figures it is left out of.
 */
export function SimulatedNote({ what, alsoOutOf }: { what: string; alsoOutOf: string }) {
  const project = useProject();
  const state = useLoad(async () => {
    const config = await call(api.GET('/config'));
    if (!config.development) return null;
    return (await call(api.GET('/projects/{id}/security', { params: { path: { id: project.id } } }))).simulated;
  }, [project.id]);
  const simulated = state.data;
  if (!simulated) return null;
  return (
    <Notice role="note">
      {simulated.counted
        ? `Mail to the simulator addresses counts in ${what} (REPUTATION_COUNT_SIMULATED).`
        : `Mail to the simulator addresses is left out of ${what}, as it is of ${alsoOutOf}: it is development's simulation, not mail that left.`}
    </Notice>
  );
}
