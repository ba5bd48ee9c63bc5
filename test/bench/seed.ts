import { Client } from 'pg';

import { loadConfig } from '../../src/platform/config';
import { createRuntime, SWEEP_STEPS } from '../../src/runtime/runtime';

/**
 * Realistic data straight into the database (mostly monthly and yearly, some weekly, a few daily records):
 * one user with 1,000 records across every cycle and currency,
 * with folders, tags and catalogue products; and 1,000 more users with 100 records each. Then brought to the
 * state the server's upkeep keeps (next payment dates, ledgers, reminders), as on a server that has been
 * running: otherwise the server's first sweeps after the seed would catch up on 101,000 records in the middle of
 * a measurement.
 */
export async function seed(databaseUrl: string, mainUserId: number): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into "folders" ("user_id", "name", "color") select $1, 'Folder ' || n, '#' || lpad(to_hex(n * 40000), 6, '0') from generate_series(1, 10) n`,
      [mainUserId],
    );
    await client.query(`insert into "tags" ("user_id", "name") select $1, 'tag ' || n from generate_series(1, 20) n`, [
      mainUserId,
    ]);
    await client.query(
      `insert into "users" ("email", "password_hash", "name") select 'bench' || n || '@example.com', 'x', 'Bench ' || n from generate_series(1, 1000) n`,
    );
    const records = (userExpression: string, count: string, folders: string) => `
      insert into "subscriptions" ("user_id", "folder_id", "product_id", "category_id", "alert_id", "type", "image", "favicon", "product_name", "brandname",
        "product_type", "description", "price", "price_type", "recurring", "payment_date", "billing_frequency", "billing_cycle",
        "billing_type", "status", "timezone", "refund_days", "created_by", "homepage")
      select ${userExpression}, ${folders}, p."id", p."category_id", 1, 1, p."image", p."favicon", p."product_name", p."brandname", 1,
        'Bench record ' || g.n, round((random() * 60)::numeric + 1, 2), c.code, case when g.n % 10 = 0 then 0 else 1 end,
        date '2025-01-01' + (g.n % 700), 1 + (g.n % 3),
        case when g.n % 50 = 0 then 1 when g.n % 10 = 1 then 2 when g.n % 3 = 0 then 4 else 3 end, 1 + (g.n % 2), case when g.n % 17 = 0 then 2 else 1 end, 'UTC',
        case when g.n % 3 = 0 then 14 else null end, ${userExpression}, p."url"
      from ${count}
      join (select row_number() over (order by "id") as "rn", * from "products" where "owner_id" is null) p on p."rn" = 1 + g.n % 400
      cross join lateral (select (array['USD','EUR','GBP','JPY','CAD','AUD','CHF','SEK'])[1 + g.n % 8] as code) c`;
    await client.query(
      records(
        String(mainUserId),
        'generate_series(1, 1000) as g(n)',
        `(select "id" from "folders" where "user_id" = ${mainUserId} order by "id" offset (g.n % 11) limit 1)`,
      ),
    );
    await client.query(
      `insert into "subscription_tags" ("subscription_id", "tag_id")
      select s."id", t."id" from "subscriptions" s join lateral (select "id" from "tags" where "user_id" = $1 order by random() limit 2) t on true where s."user_id" = $1`,
      [mainUserId],
    );
    await client.query(
      `${records('u."id"', `"users" u cross join generate_series(1, 100) as g(n)`, 'null')} where u."email" like 'bench%'`,
    );
    const upkeep = await createRuntime(loadConfig({ ...process.env, DATABASE_URL: databaseUrl }), 'cli');
    try {
      // Each step to its end before the next, as the server's passes would take them over many runs; then the
      // reminders whose time has come fire, as the server's relay would have fired them on the way.
      for (const step of SWEEP_STEPS) while ((await step(upkeep.services)) > 0);
      for (
        let due = await upkeep.services.reminders.claimDue(500);
        due.length > 0;
        due = await upkeep.services.reminders.claimDue(500)
      ) {
        for (const { reminderId } of due) await upkeep.services.reminders.fire(reminderId);
      }
    } finally {
      await upkeep.close();
    }
    // Vacuumed as well as analysed, so autovacuum does not start on the fresh rows in the middle of a measurement.
    await client.query('vacuum analyze');
    // And written out, so the checkpoint of these writes does not run under the measurements that follow.
    await client.query('checkpoint');
  } finally {
    await client.end();
  }
}
