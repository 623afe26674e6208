import type { ConnectionPlugin } from '@temporalio/client';

/**
 * For connections to a time-skipping test server. The client pings every 30 s, with or without calls; the test
 * server (grpc-java: pings at most every 5 minutes, none without calls) answers the third with GOAWAY
 * "too_many_pings", so a connection older than 90 s loses a call in flight then (a time-skipping sleep cut
 * mid-call leaves time locked). The environment takes no connection options, but its connections apply its plugins.
 */
export const testServerKeepalive: ConnectionPlugin = {
  name: 'postwire-test-server-keepalive',
  configureConnection: (options) => ({
    ...options,
    channelArgs: { ...options.channelArgs, 'grpc.keepalive_permit_without_calls': 0, 'grpc.keepalive_time_ms': 600_000 },
  }),
};
