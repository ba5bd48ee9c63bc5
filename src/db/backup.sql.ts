/**
 * The statements of backup and restore (backup.ts): reads of the catalog of the schema the connection works in
 * (search_path's first), and the COPY of a table's columns in PostgreSQL's binary format. Names come quoted.
 */

/** The schema the connection works in, as a subquery. */
const SCHEMA = `(select "oid" from pg_namespace where "nspname" = current_schema())`;

/** Every column of every table, generated ones aside (COPY FROM cannot set them), in table and column order. */
export const TABLE_COLUMNS = `select c."relname" as "table", a."attname" as "name", format_type(a."atttypid", a."atttypmod") as "type"
       from pg_class c join pg_attribute a on a."attrelid" = c."oid"
      where c."relnamespace" = ${SCHEMA} and c."relkind" = 'r' and a."attnum" > 0 and not a."attisdropped" and a."attgenerated" = ''
      order by c."relname", a."attnum"`;

/** Which table refers to which through a foreign key (a table's keys to itself aside). */
export const FOREIGN_KEYS = `select c."relname" as "child", p."relname" as "parent"
       from pg_constraint k join pg_class c on c."oid" = k."conrelid" join pg_class p on p."oid" = k."confrelid"
      where k."contype" = 'f' and c."relnamespace" = ${SCHEMA} and p."relnamespace" = ${SCHEMA} and k."conrelid" <> k."confrelid"`;

/** The sequences and the value nextval() last gave. */
export const SEQUENCES = `select c."relname" as "name", pg_sequence_last_value(c."oid")::text as "lastValue", s."seqstart"::text as "startValue"
       from pg_class c join pg_sequence s on s."seqrelid" = c."oid"
      where c."relnamespace" = ${SCHEMA}
      order by c."relname"`;

/** The schema's own triggers that are on (the ones constraints make aside). */
export const ENABLED_TRIGGERS = `select c."relname" as "table", t."tgname" as "name", t."tgenabled" as "mode"
       from pg_trigger t join pg_class c on c."oid" = t."tgrelid"
      where c."relnamespace" = ${SCHEMA} and not t."tgisinternal" and t."tgenabled" <> 'D'
      order by c."relname", t."tgname"`;

/** Whether the table named by $1 (quoted) exists. */
export const TABLE_EXISTS = `select to_regclass($1) is not null as "found"`;

export const appliedMigrations = (table: string) => `select "name" from ${table} order by "id"`;

/** When the snapshot was taken, and on which server version. */
export const SNAPSHOT_ORIGIN = `select now() as "now", current_setting('server_version') as "version"`;

export const ACCOUNTS = `select count(*)::int as "accounts" from "users"`;

export const copyOut = (table: string, columns: string) => `copy ${table} (${columns}) to stdout (format binary)`;

export const copyIn = (table: string, columns: string) => `copy ${table} (${columns}) from stdin (format binary)`;
