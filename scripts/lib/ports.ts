const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/** Where `npm start` puts each service; each can be moved with its environment variable. */
export const ports = {
  api: port('PORT', 3000),
  postgres: port('POSTGRES_PORT', 54320),
  temporal: port('TEMPORAL_PORT', 7233),
  temporalUi: port('TEMPORAL_UI_PORT', 8233),
  smtp: port('MAIL_CAPTURE_SMTP_PORT', 1025),
  mailWeb: port('MAIL_CAPTURE_WEB_PORT', 1080),
};
