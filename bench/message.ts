/**
 * What a campaign email costs the worker in its own work on the message, with no database, Temporal or SMTP
 * (bench/lib/message-work.ts): `BENCH_EMAILS` recipients (default 5,000), median of `BENCH_ROUNDS` rounds
 * (default 5). Calibrated in the same run by one RSA-2048 signature, in Node with the same key and by
 * `openssl speed`: what the message costs besides that signature is the part a leaner message path could win.
 */
import { messageWork, messageWorkMs, messageWorkStages } from './lib/message-work';
import { rsa2048SignMs } from './lib/rsa-speed';

const EMAILS = Number(process.env.BENCH_EMAILS ?? 5_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

async function main(): Promise<void> {
  const work = await messageWork(EMAILS, ROUNDS);
  const openssl = await rsa2048SignMs();
  const all = messageWorkMs(work);
  console.log(`the message work of a campaign email, ${EMAILS} recipients, median of ${ROUNDS} rounds, CPU per email:`);
  console.log(`  ${messageWorkStages(work)}`);
  console.log(
    `  in all ${all.toFixed(3)} ms, ${(all / work.signature).toFixed(2)} signatures; besides the signature ${(all - work.signature).toFixed(3)} ms ` +
      `(building and signing besides it ${(work.buildAndSign - work.signature).toFixed(3)} ms)`,
  );
  console.log(
    `calibration: one RSA-2048 signature takes ${work.signature.toFixed(3)} ms in Node (same key), ` +
      `${openssl === null ? '(openssl not found)' : `${openssl.toFixed(3)} ms`} by openssl speed`,
  );
}

void main();
