import sql from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';

/** A catalogue product whose logo fetch was claimed, with the addresses it names. */
export interface ClaimedFetch {
  productId: number;
  image: string;
  favicon: string;
}

/** The logos and logo_fetches tables. */
export class LogoRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Claims up to `limit` catalogue products a live record uses that have an image or favicon address and no
   * fetch yet: each gets its logo_fetches row now, so no process (nor a restart) fetches it again.
   */
  claimFetches(limit: number): Promise<ClaimedFetch[]> {
    return this.db.apart.rows<ClaimedFetch>(
      sql`with "claimed" as (
         insert into "logo_fetches" ("product_id")
         select w."product_id" from (
           select distinct s."product_id" from "subscriptions" s join "products" p on p."id" = s."product_id"
            where s."deleted_at" is null and p."owner_id" is null and (p."image" <> '' or p."favicon" <> '')
              and not exists (select 1 from "logo_fetches" f where f."product_id" = s."product_id")
            limit ${limit}) w
         on conflict do nothing
         returning "product_id")
       select c."product_id" as "productId", p."image", p."favicon" from "claimed" c join "products" p on p."id" = c."product_id"`,
    );
  }

  /** Why a product's fetch failed, kept so that it is not made again. */
  async fetchFailed(productId: number, error: string): Promise<void> {
    await this.db.run(
      sql`update "logo_fetches" set "error" = ${error.slice(0, 500)} where "product_id" = ${productId}`,
    );
  }

  /** Gives a claim back (a fetch that failed for reasons of this server's own): a later round claims it again. */
  async releaseFetch(productId: number): Promise<void> {
    await this.db.run(sql`delete from "logo_fetches" where "product_id" = ${productId} and "error" is null`);
  }

  /** Keeps a logo's bytes under its hash (the same picture stored twice is one row). */
  async store(hash: string, bytes: Buffer): Promise<void> {
    await this.db.run(
      sql`insert into "logos" ("hash", "bytes") values (${hash}, decode(${bytes.toString('base64')}, 'base64'))
            on conflict do nothing`,
    );
  }

  /** A logo's bytes, if it is kept. */
  async bytes(hash: string): Promise<Buffer | null> {
    const row = await this.db.row<{ bytes: Buffer }>(sql`select "bytes" from "logos" where "hash" = ${hash}`);
    return row?.bytes ?? null;
  }

  /** Drops a logo no product or record shows any more (one removed or replaced), so it is served no longer. */
  async dropUnused(hash: string): Promise<void> {
    await this.db.run(
      sql`delete from "logos" where "hash" = ${hash}
            and not exists (select 1 from "products" where "logo_hash" = ${hash})
            and not exists (select 1 from "subscriptions" where "logo_hash" = ${hash})`,
    );
  }
}
