import { Migration } from '@mikro-orm/migrations';

/**
 * Live updates (GraphQL subscriptions): the database announces every outbox event and every change of a
 * delivery's status on the channel `subledger_live`, from the statement that wrote it. NOTIFY is sent at
 * commit and dropped on rollback, so whatever process wrote the change (API, worker, CLI, another instance),
 * listeners hear of it only once it is visible, and never of a change that did not happen. The payloads are
 * ids only (the 8000-byte limit, and no data on the wire a listener has not read itself): `k` the kind (`e`
 * an event, `d` a delivery), `u` the owner, then the event's id, topic and record, or the delivery's id and
 * status. Statement triggers over transition tables: a statement writing many rows (an import) runs the
 * function once.
 */
export class Migration20261127090000_live_notifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function "live_events_notify"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('subledger_live', json_build_object(
                  'k', 'e', 'id', n."id", 'u', n."user_id", 't', n."topic", 's', n."subscription_id")::text)
           from "new_rows" n where n."topic" <> 'notification.test';
        return null;
      end $$;`);
    this.addSql(`create trigger "webhook_events_live" after insert on "webhook_events"
      referencing new table as "new_rows" for each statement execute function "live_events_notify"();`);
    // A delivery is announced when it is written (PENDING) and whenever its status changes; 'x' (the
    // transaction) tells a PENDING → FAILED → PENDING → FAILED apart from one change heard twice.
    this.addSql(`create function "live_deliveries_notify"() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          perform pg_notify('subledger_live', json_build_object(
                    'k', 'd', 'id', n."id", 'u', e."user_id", 'st', n."status", 'x', txid_current())::text)
             from "new_rows" n join "webhook_events" e on e."id" = n."event_id";
        else
          perform pg_notify('subledger_live', json_build_object(
                    'k', 'd', 'id', n."id", 'u', e."user_id", 'st', n."status", 'x', txid_current())::text)
             from "new_rows" n join "old_rows" o on o."id" = n."id" join "webhook_events" e on e."id" = n."event_id"
            where n."status" is distinct from o."status";
        end if;
        return null;
      end $$;`);
    this.addSql(`create trigger "webhook_deliveries_live_insert" after insert on "webhook_deliveries"
      referencing new table as "new_rows" for each statement execute function "live_deliveries_notify"();`);
    this.addSql(`create trigger "webhook_deliveries_live_update" after update on "webhook_deliveries"
      referencing old table as "old_rows" new table as "new_rows" for each statement execute function "live_deliveries_notify"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "webhook_deliveries_live_update" on "webhook_deliveries";`);
    this.addSql(`drop trigger if exists "webhook_deliveries_live_insert" on "webhook_deliveries";`);
    this.addSql(`drop trigger if exists "webhook_events_live" on "webhook_events";`);
    this.addSql(`drop function if exists "live_deliveries_notify"();`);
    this.addSql(`drop function if exists "live_events_notify"();`);
  }
}
