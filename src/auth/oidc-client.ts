import type * as OpenIdClient from 'openid-client' with { 'resolution-mode': 'import' };

import type { OidcConfig } from '../platform/config';
import { SignOnRefusal } from './sign-on-refusal';

export type OpenId = typeof OpenIdClient;

/** openid-client and the provider's configuration, found on first use. */
export interface OidcProvider {
  openId: OpenId;
  configuration: OpenIdClient.Configuration;
  redirectUri: string;
}

/**
 * The provider Subledger is a client of. Its discovery document is read on the first sign-in and kept for the
 * process; a discovery that failed (the provider down) is tried again by the next sign-in.
 */
export class OidcProviderClient {
  private discovered: Promise<OidcProvider> | null = null;

  constructor(
    private readonly settings: OidcConfig,
    private readonly redirectUri: string,
  ) {}

  provider(): Promise<OidcProvider> {
    this.discovered ??= this.discover().catch((error: unknown) => {
      this.discovered = null;
      throw error;
    });
    return this.discovered;
  }

  private async discover(): Promise<OidcProvider> {
    // An ES module only, which Node ≥20.19 (package.json engines) requires synchronously; loaded only where
    // single sign-on is set up.
    const openId = require('openid-client') as OpenId;
    const { issuer, clientId, clientSecret } = this.settings;
    try {
      const configuration = await openId.discovery(
        new URL(issuer),
        clientId,
        { redirect_uris: [this.redirectUri], response_types: ['code'] },
        clientSecret === null ? openId.None() : openId.ClientSecretBasic(clientSecret),
        // An http:// issuer is the operator's explicit choice (a provider on a private network, a test's).
        { execute: new URL(issuer).protocol === 'http:' ? [openId.allowInsecureRequests] : [], timeout: 10 },
      );
      return { openId, configuration, redirectUri: this.redirectUri };
    } catch (error) {
      throw new SignOnRefusal(
        'SERVICE_UNAVAILABLE',
        `The identity provider at ${issuer} cannot be reached or its configuration was refused: ${(error as Error).message}`,
        'unavailable',
      );
    }
  }
}
