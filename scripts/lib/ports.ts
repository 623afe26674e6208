/** Where `npm start` (and `npm run cluster`) put each service by default; `.env.example` lists the same variables. */
export const portDefaults = {
  PORT: 3000,
  POSTGRES_PORT: 54320,
  TEMPORAL_PORT: 7233,
  TEMPORAL_UI_PORT: 8233,
  MAIL_CAPTURE_SMTP_PORT: 1025,
  MAIL_CAPTURE_WEB_PORT: 1080,
  DEV_DNS_PORT: 1053,
  DASHBOARD_DEV_PORT: 5173,
  WEBHOOK_CAPTURE_PORT: 1090,
  /** `npm run cluster`: the first of its block of ports (scripts/lib/cluster/layout.ts), all below 32768. */
  CLUSTER_PORT: 17000,
} as const;

function port(name: keyof typeof portDefaults): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? portDefaults[name] : Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535) throw new Error(`${name}: must be a port number from 1 to 65535`);
  return value;
}

/** Where `npm start` puts each service; each can be moved with its environment variable. */
export const ports = {
  api: port('PORT'),
  postgres: port('POSTGRES_PORT'),
  temporal: port('TEMPORAL_PORT'),
  temporalUi: port('TEMPORAL_UI_PORT'),
  smtp: port('MAIL_CAPTURE_SMTP_PORT'),
  mailWeb: port('MAIL_CAPTURE_WEB_PORT'),
  dns: port('DEV_DNS_PORT'),
  dashboardDev: port('DASHBOARD_DEV_PORT'),
  webhookCapture: port('WEBHOOK_CAPTURE_PORT'),
  cluster: port('CLUSTER_PORT'),
};
