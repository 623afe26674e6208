/**
 * A process that stops as npm start's do (src/main/stop-signals.ts): it prints its pid, and on a stop signal
 * takes 300 ms to stop before printing `stopped` and exiting with 0. For test/foundation/stop-signals.unit.test.ts,
 * which runs it under tsx as npm start runs its processes.
 */
import { onStopSignals } from '../../src/main/stop-signals';

onStopSignals(() => {
  setTimeout(() => {
    console.log('stopped');
    process.exit(0);
  }, 300);
});
console.log(`pid ${process.pid}`);
setInterval(() => undefined, 1_000);
