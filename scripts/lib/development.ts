/**
 * What `npm start` adds for development (docs/sandbox.md): the simulator addresses, the development DNS server
 * and the development account. None of it with production settings (NODE_ENV=production); the DNS server is
 * not run when DNS_SERVERS names resolvers, and SANDBOX_ENABLED=false turns the sandbox off.
 */
export function developmentAids(env: NodeJS.ProcessEnv): { sandbox: boolean; devDns: boolean } {
  if (env.NODE_ENV === 'production') return { sandbox: false, devDns: false };
  return { sandbox: env.SANDBOX_ENABLED !== 'false', devDns: !env.DNS_SERVERS };
}

/**
 * The settings `npm start` gives the API and the worker for them; the caller's own environment wins. With the
 * sandbox, webhook endpoints on loopback are allowed too, so that the development webhook capture (or a
 * receiver of your own on this machine) can be tried (docs/webhooks.md "Trying webhooks locally").
 */
export function developmentEnv(aids: { sandbox: boolean }, devDnsAddress: string | null): NodeJS.ProcessEnv {
  return {
    ...(aids.sandbox ? { SANDBOX_ENABLED: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' } : {}),
    ...(devDnsAddress ? { DNS_SERVERS: devDnsAddress } : {}),
  };
}
