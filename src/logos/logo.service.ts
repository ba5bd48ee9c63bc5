import type { ProductRepository } from '../catalogue/product.repository';
import type { Caller } from '../platform/caller';
import type { Config } from '../platform/config';
import type { Transactions } from '../platform/db/data-source';
import { AppError } from '../platform/errors';
import type { Logger } from '../platform/logger';
import { logoPath } from '../platform/logo-path';
import type { SubscriptionRepository } from '../subscriptions/subscription.repository';
import type { ClaimedFetch, LogoRepository } from './logo.repository';
import { fetchImage, FetchRefusal } from './logo-fetch';
import { FETCH_KINDS, makeLogo, UPLOAD_KINDS } from './logo-image';

/** The largest image a user may upload as a logo. */
export const UPLOAD_MAX_BYTES = 512 * 1024;

/** What a logo is shown on: one of the caller's records, or one of their private products. */
export type LogoSubject = { kind: 'record'; id: number } | { kind: 'product'; id: number };

/**
 * Logos (docs/logos.md): catalogue products' fetched once by the server, uploads on a user's records and
 * private products, each re-encoded before it is kept, and served from here.
 */
export class LogoService {
  constructor(
    private readonly data: Transactions,
    private readonly logos: LogoRepository,
    private readonly products: ProductRepository,
    private readonly subscriptions: SubscriptionRepository,
    private readonly config: Config,
    private readonly logger: Logger,
  ) {}

  /** Claims catalogue products whose logo is to be fetched (none while LOGO_FETCH is off). */
  claimFetches(limit: number): Promise<ClaimedFetch[]> {
    return this.config.logoFetch ? this.logos.claimFetches(limit) : Promise.resolve([]);
  }

  /**
   * Fetches a claimed product's logo: its image's address, then its favicon's when that differs. The first
   * that yields a logo is kept and shown on the product; when none does, why the last failed is kept instead
   * (the product keeps its monogram, and no fetch is made again).
   */
  async fetchProductLogo(claim: ClaimedFetch): Promise<void> {
    const addresses = [...new Set([claim.image, claim.favicon].filter(Boolean))];
    let failure = 'no address';
    for (const address of addresses) {
      try {
        const logo = await makeLogo(await fetchImage(address, this.config.logoAllowPrivate), FETCH_KINDS);
        await this.data.transaction(async () => {
          await this.logos.store(logo.hash, logo.bytes);
          await this.products.setCatalogueLogo(claim.productId, logo.hash);
        });
        return;
      } catch (error) {
        if (!(error instanceof FetchRefusal) && !(error instanceof AppError)) {
          // Not the vendor's doing (the database failed): the claim goes back, else it would stay taken for good.
          await this.logos.releaseFetch(claim.productId).catch(() => undefined);
          throw error;
        }
        failure = `${address}: ${error.message}`;
      }
    }
    this.logger.info({ productId: claim.productId, reason: failure }, 'no logo fetched for a catalogue product');
    await this.logos.fetchFailed(claim.productId, failure);
  }

  /**
   * Makes an uploaded image the logo of one of the caller's records or private products: PNG, JPEG or WebP by
   * its content, at most UPLOAD_MAX_BYTES. Answers the logo's URL. Another user's record, or a catalogue
   * product, is not found; a refused file changes nothing.
   */
  async upload(caller: Caller, subject: LogoSubject, file: Buffer): Promise<string> {
    if (file.length > UPLOAD_MAX_BYTES)
      throw new AppError('PAYLOAD_TOO_LARGE', `A logo may be at most ${UPLOAD_MAX_BYTES / 1024} KB.`);
    const logo = await makeLogo(file, UPLOAD_KINDS);
    await this.data.transaction(async () => {
      await this.logos.store(logo.hash, logo.bytes);
      await this.show(caller, subject, logo.hash);
    });
    return logoPath(logo.hash)!;
  }

  /** Takes the uploaded logo off one of the caller's records or private products (the monogram, or its product's logo, shows again). */
  async remove(caller: Caller, subject: LogoSubject): Promise<void> {
    await this.data.transaction(() => this.show(caller, subject, null));
  }

  /** A logo's bytes (a WebP) by its hash; null when none is kept under it. */
  image(hash: string): Promise<Buffer | null> {
    return this.logos.bytes(hash);
  }

  /** Shows `hash` on the subject, and drops the logo it showed before when nothing else shows it. */
  private async show(caller: Caller, subject: LogoSubject, hash: string | null): Promise<void> {
    const changed =
      subject.kind === 'record'
        ? await this.subscriptions.setLogo(caller.userId, subject.id, hash)
        : await this.products.setOwnLogo(caller.userId, subject.id, hash);
    if (!changed) throw AppError.notFound(subject.kind === 'record' ? 'Subscription' : 'Product');
    if (changed.previous && changed.previous !== hash) await this.logos.dropUnused(changed.previous);
  }
}
