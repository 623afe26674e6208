import pino from 'pino';

export type Logger = pino.Logger;

/** Structured JSON logs on stdout, one object per line. */
export function createLogger(level: string, name: string): Logger {
  return pino({ level, name, base: { service: name }, timestamp: pino.stdTimeFunctions.isoTime });
}
