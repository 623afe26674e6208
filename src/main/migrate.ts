import { loadConfig } from '../config';
import { initOrm } from '../app/orm';
import { migrate } from '../db/orm';
import { runMain } from '../bootstrap';

runMain(async () => {
  const config = loadConfig();
  const orm = await initOrm(config.DATABASE_URL, 2);
  const applied = await migrate(orm);
  console.log(applied.length ? `[migrate] applied ${applied.join(', ')}` : '[migrate] schema is up to date');
  await orm.close();
});
