/**
 * SMTP both ways (docs/smtp.md), against one API process and in the same run:
 *
 * - the relay beside POST /v1/send: messages accepted per second and the CPU the API process and its
 *   PostgreSQL connections spent per message, one new recipient each, alternately for BENCH_ROUNDS rounds
 *   (default 2) of BENCH_SECONDS each (default 15); the relay over BENCH_SMTP_CLIENTS SMTP connections
 *   (default 16, nodemailer as applications use it), /v1/send over as many HTTP connections;
 * - inbound mail: messages kept per second and CPU per message for a 20 kB message with one attachment,
 *   over the same number of connections (SPF, DKIM and DMARC checked against a DNS server on loopback).
 *
 * The API (src/main/api.ts, its own process) listens on BENCH_PORT (default 3112) with its inbound server and
 * relay on BENCH_INBOUND_PORT and BENCH_RELAY_PORT (defaults: the two ports after BENCH_PORT), over its own
 * database `postwire_bench_smtp`, the per-minute limit off, for a project whose domain is entered as verified
 * with inbound on. No pump runs: accepted means queued (relay, /v1/send) or kept (inbound).
 */
import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { DnsServer } from '../scripts/lib/dns-server';
import { startApiProcess } from './lib/api-process';
import { BackendCpu } from './lib/backend-cpu';
import { treeCpuMs } from './lib/cpu';
import { runBench } from './lib/run';
import { loadNote, sendingBench, signInCodes } from './lib/sending';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CLIENTS = Number(process.env.BENCH_SMTP_CLIENTS ?? 16);
const PORT = Number(process.env.BENCH_PORT ?? 3112);
const INBOUND_PORT = Number(process.env.BENCH_INBOUND_PORT ?? PORT + 1);
const RELAY_PORT = Number(process.env.BENCH_RELAY_PORT ?? PORT + 2);
const APPLICATION = 'postwire-bench-smtp-api';

interface Totals {
  messages: number;
  apiMs: number;
  dbMs: number;
}

/** Sends `message(n)` over `CLIENTS` pooled SMTP connections for SECONDS; returns how many were accepted. */
async function smtpLoad(options: object, message: (n: number) => Mail.Options): Promise<number> {
  const deadline = Date.now() + SECONDS * 1000;
  let n = 0;
  let accepted = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        secure: false,
        ignoreTLS: true,
        pool: true,
        maxConnections: 1,
        ...options,
      });
      try {
        while (Date.now() < deadline) {
          n += 1;
          const info = await transport.sendMail(message(n)).catch((err: unknown) => {
            console.error(`  refused: ${err instanceof Error ? err.message : String(err)}`);
            return null;
          });
          if (info?.response.startsWith('250')) accepted += 1;
        }
      } finally {
        transport.close();
      }
    }),
  );
  return accepted;
}

async function main(): Promise<void> {
  const dns = await DnsServer.start();
  const bench = await sendingBench('postwire_bench_smtp');
  const domain = bench.from.slice(bench.from.indexOf('@') + 1);
  await bench.orm.em.fork().execute(`update domains set "inbound" = true where "project_id" = ?`, [bench.projectId]);
  const api = await startApiProcess(PORT, bench.config.DATABASE_URL, {
    ...bench.env,
    API_RATE_LIMIT_PER_MINUTE: '0',
    PGAPPNAME: APPLICATION,
    DNS_SERVERS: dns.address,
    INBOUND_SMTP_PORT: String(INBOUND_PORT),
    RELAY_SMTP_PORT: String(RELAY_PORT),
  });
  const database = new BackendCpu(bench.orm.em, APPLICATION);
  const measure = async (name: string, run: () => Promise<number>, into: Totals) => {
    const apiBefore = treeCpuMs(api.pid);
    await database.start();
    const messages = await run();
    const apiMs = treeCpuMs(api.pid) - apiBefore;
    const dbMs = await database.elapsedMs();
    const per = (ms: number) => (messages ? (ms / messages).toFixed(3) : '—');
    console.log(
      `${name}\n  ${(messages / SECONDS).toFixed(0)} messages/s; CPU per message: API ${per(apiMs)} ms, PostgreSQL ${per(dbMs)} ms; ${loadNote()}`,
    );
    into.messages += messages;
    into.apiMs += apiMs;
    into.dbMs += dbMs;
  };
  const totals = {
    send: { messages: 0, apiMs: 0, dbMs: 0 },
    relay: { messages: 0, apiMs: 0, dbMs: 0 },
    inbound: { messages: 0, apiMs: 0, dbMs: 0 },
  };
  const run = Date.now().toString(36);
  const email = signInCodes(bench.from);
  const attachment = randomBytes(14 * 1024);
  const text = 'A line of a reply that quotes the message it answers, as people write them.\n'.repeat(60);
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      await measure(
        `round ${round}: POST /v1/send, one recipient a request, ${CLIENTS} connections`,
        async () => {
          const figures = await runBench({
            name: 'send',
            url: `${api.url}/v1/send`,
            method: 'POST',
            headers: { authorization: `Bearer ${bench.secret}` },
            body: email,
            durationSeconds: SECONDS,
            connections: CLIENTS,
          });
          return figures.statuses['200'] ?? 0;
        },
        totals.send,
      );
      await measure(
        `round ${round}: the SMTP relay, one recipient a message, ${CLIENTS} connections`,
        () =>
          smtpLoad({ port: RELAY_PORT, auth: { user: 'bench', pass: bench.secret } }, (n) => ({
            from: `Bench <${bench.from}>`,
            to: `relayed-${n}-${round}-${run}@bench.test`,
            subject: 'Your sign-in code',
            html: `<p>Hello,</p><p>your code is <b>${100000 + n}</b>.</p>`,
          })),
        totals.relay,
      );
      await measure(
        `round ${round}: inbound, 20 kB with one attachment, ${CLIENTS} connections`,
        () =>
          smtpLoad({ port: INBOUND_PORT }, (n) => ({
            from: `Customer ${n} <customer-${n % 500}@client.bench.test>`,
            to: `support@${domain}`,
            subject: `Re: your order ${n}`,
            text,
            attachments: [{ filename: 'photo.jpg', content: attachment, contentType: 'image/jpeg' }],
          })),
        totals.inbound,
      );
    }
    const line = (name: string, t: Totals) =>
      `${name}: ${(t.messages / (ROUNDS * SECONDS)).toFixed(0)} messages/s, API ${(t.apiMs / t.messages).toFixed(3)} ms and PostgreSQL ${(t.dbMs / t.messages).toFixed(3)} ms of CPU per message`;
    console.log(
      `all rounds\n  ${line('POST /v1/send', totals.send)}\n  ${line('relay', totals.relay)}\n  ${line('inbound', totals.inbound)}`,
    );
  } finally {
    await api.stop();
    await bench.close();
    await dns.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
