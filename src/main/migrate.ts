import { loadConfig } from '../config';
import { initOrm } from '../app/orm';
import { migrate } from '../db/orm';
import { runMain } from '../bootstrap';

runMain(async () => {
  const config = loadConfig();
  const orm = await initOrm(config.DATABASE_URL, 2);
  const applied = await migrate(orm);
  const summary =
    applied.length <= 3 ? applied.join(', ') : `${applied.length} migrations, ${applied[0]} to ${applied[applied.length - 1]}`;
  console.log(applied.length ? `[migrate] applied ${summary}` : '[migrate] schema is up to date');
  await orm.close();
});
