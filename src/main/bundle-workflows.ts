/** `node dist/src/main/bundle-workflows.js <file>`: writes the worker's workflow bundle (the image builds it once). */
import { writeWorkflowBundle } from '../temporal/workflow-bundle';

const file = process.argv[2];
if (!file) {
  console.error('usage: bundle-workflows <output file>');
  process.exit(2);
}
writeWorkflowBundle(file).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
