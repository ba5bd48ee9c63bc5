import { DateTimeResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

import { Node } from '../platform/graphql/node';
import { MutationPayload } from '../platform/graphql/payloads';
import { toIsoMicros } from '../platform/wire-formats';
import { type AccessToken, TokenScope } from './access-token.entity';
import { deviceName } from './device';
import { MAX_TOKEN_DAYS } from './personal-tokens.service';

registerEnumType(TokenScope, {
  name: 'TokenScope',
  description: 'What a personal access token may do.',
  valuesConfig: {
    READ_ONLY: {
      description: 'Reads only: a write gets FORBIDDEN (403 on REST); logout is allowed (it revokes the token itself).',
    },
    READ_WRITE: { description: 'Everything its owner may do, but make personal access tokens.' },
  },
});

@ObjectType('PersonalAccessToken', {
  implements: Node,
  description: 'A named Bearer token for a script or client, made by its owner; its secret is shown once.',
})
export class PersonalAccessTokenView {
  id!: number;
  @Field({ description: 'Its name.' }) name!: string;
  @Field(() => TokenScope, { description: 'What it may do.' }) scope!: TokenScope;
  @Field(() => DateTimeResolver, { description: 'When it was made.' }) createdAt!: string;
  @Field(() => DateTimeResolver, {
    nullable: true,
    description: 'When it was last used (written about once a minute at most); null if never.',
  })
  lastUsedAt!: string | null;
  @Field(() => DateTimeResolver, {
    nullable: true,
    description: 'When it stops working (fixed: use does not extend it); null if never.',
  })
  expiresAt!: string | null;
}

@ObjectType('Session', {
  implements: Node,
  description: 'A sign-in (login or sign-up) and the token it gave: signed out by revoking it.',
})
export class SessionView {
  id!: number;
  @Field(() => String, {
    nullable: true,
    description:
      'The device it signed in from: "Firefox 133 on Linux" for a browser known by its User-Agent, else the User-Agent itself; null when the client sent none.',
  })
  device!: string | null;
  @Field(() => String, {
    nullable: true,
    description: "The client's User-Agent at sign-in (whitespace collapsed, at most 255 characters); null when none.",
  })
  userAgent!: string | null;
  @Field(() => DateTimeResolver, { description: 'When it signed in.' }) createdAt!: string;
  @Field(() => DateTimeResolver, {
    nullable: true,
    description: 'When it was last used (written about once a minute at most); null if never.',
  })
  lastUsedAt!: string | null;
  @Field({ description: 'Whether this request was made with it.' }) current!: boolean;
}

@InputType('CreatePersonalAccessTokenInput', { description: 'A new personal access token.' })
export class CreatePersonalAccessTokenInput {
  @Field({ description: 'Its name, 1 to 100 characters.' }) name!: string;
  @Field(() => TokenScope, { description: 'What it may do.' }) scope!: TokenScope;
  @Field(() => DateTimeResolver, {
    nullable: true,
    description: `When it stops working: in the future, at most ${MAX_TOKEN_DAYS} days on. Not with expiresInDays.`,
  })
  expiresAt?: Date | null;
  @Field(() => Int, {
    nullable: true,
    description: `Days from now until it stops working, 1 to ${MAX_TOKEN_DAYS}. Not with expiresAt; neither: it never expires.`,
  })
  expiresInDays?: number | null;
}

@InputType('RevokePersonalAccessTokenInput', { description: 'The personal access token to revoke.' })
export class RevokePersonalAccessTokenInput {
  @Field(() => ID, { description: 'The global id of one of your personal access tokens.' }) id!: string;
}

@InputType('RevokeSessionInput', { description: 'The session to sign out.' })
export class RevokeSessionInput {
  @Field(() => ID, { description: 'The global id of one of your sessions.' }) id!: string;
}

export const CreatePersonalAccessTokenPayload = MutationPayload(
  'CreatePersonalAccessTokenPayload',
  'personalAccessToken',
  () => PersonalAccessTokenView,
  'The new personal access token and its string.',
  {
    token: {
      type: () => String,
      description: 'The token to send as `Authorization: Bearer <token>`: shown this once, only its hash is kept.',
    },
  },
);
export const RevokePersonalAccessTokenPayload = MutationPayload(
  'RevokePersonalAccessTokenPayload',
  'personalAccessToken',
  () => PersonalAccessTokenView,
  'The revoked personal access token.',
);
export const RevokeSessionPayload = MutationPayload(
  'RevokeSessionPayload',
  'session',
  () => SessionView,
  'The session signed out.',
);

export function toPersonalTokenView(token: AccessToken): PersonalAccessTokenView {
  return {
    id: token.id,
    name: token.name ?? '',
    scope: token.scope,
    createdAt: toIsoMicros(token.createdAt)!,
    lastUsedAt: toIsoMicros(token.lastUsedAt ?? null),
    expiresAt: toIsoMicros(token.expiresAt ?? null),
  };
}

/** A session as `tokenId` (the caller's token; null: none) sees it. */
export function toSessionView(token: AccessToken, tokenId: number | null): SessionView {
  return {
    id: token.id,
    device: deviceName(token.device ?? null),
    userAgent: token.device ?? null,
    createdAt: toIsoMicros(token.createdAt)!,
    lastUsedAt: toIsoMicros(token.lastUsedAt ?? null),
    current: token.id === tokenId,
  };
}
