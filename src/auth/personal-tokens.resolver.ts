import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { idOf } from '../platform/graphql/global-ids';
import type { NodeLookup } from '../platform/graphql/node';
import type { PersonalTokenService } from './personal-tokens.service';
import {
  CreatePersonalAccessTokenInput,
  CreatePersonalAccessTokenPayload,
  PersonalAccessTokenView,
  RevokePersonalAccessTokenInput,
  RevokePersonalAccessTokenPayload,
  RevokeSessionInput,
  RevokeSessionPayload,
  SessionView,
  toPersonalTokenView,
  toSessionView,
} from './personal-tokens.types';

/** `node(id:)` for personal access tokens and sessions: the caller's own live ones. */
export function personalTokenNodeLookups(service: PersonalTokenService): Record<string, NodeLookup> {
  return {
    PersonalAccessToken: async (caller, id) => {
      const token = (await service.listPersonal(caller)).find((candidate) => candidate.id === id);
      return token ? toPersonalTokenView(token) : null;
    },
    Session: async (caller, id) => {
      const session = (await service.sessions(caller)).find((candidate) => candidate.id === id);
      return session ? toSessionView(session, caller.tokenId) : null;
    },
  };
}

@Resolver()
export class PersonalTokenResolver {
  constructor(private readonly tokens: PersonalTokenService) {}

  @Query(() => [PersonalAccessTokenView], {
    description: 'Your personal access tokens not revoked, newest first (their secrets are never shown again).',
  })
  async personalAccessTokens(@Ctx() context: GraphQLContext): Promise<PersonalAccessTokenView[]> {
    return (await this.tokens.listPersonal(requireCaller(context))).map(toPersonalTokenView);
  }

  @Query(() => [SessionView], { description: 'Your live sign-in sessions, newest first.' })
  async sessions(@Ctx() context: GraphQLContext): Promise<SessionView[]> {
    const caller = requireCaller(context);
    return (await this.tokens.sessions(caller)).map((session) => toSessionView(session, caller.tokenId));
  }

  @Mutation(() => CreatePersonalAccessTokenPayload, {
    description:
      'Makes a personal access token; its string is answered this once. Only a sign-in makes one: a personal token gets FORBIDDEN.',
  })
  async createPersonalAccessToken(
    @Arg('input', () => CreatePersonalAccessTokenInput, { description: 'The new token.' })
    input: CreatePersonalAccessTokenInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const { token, secret } = await this.tokens.create(requireCaller(context), input);
    return { personalAccessToken: toPersonalTokenView(token), token: secret };
  }

  @Mutation(() => RevokePersonalAccessTokenPayload, {
    description: 'Revokes a personal access token: it gets 401 from its next request on.',
  })
  async revokePersonalAccessToken(
    @Arg('input', () => RevokePersonalAccessTokenInput, { description: 'The token to revoke.' })
    input: RevokePersonalAccessTokenInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const token = await this.tokens.revokePersonal(requireCaller(context), idOf(input.id, 'PersonalAccessToken'));
    return { personalAccessToken: toPersonalTokenView(token) };
  }

  @Mutation(() => RevokeSessionPayload, {
    description: 'Signs a session out (yours too): its token gets 401 from its next request on.',
  })
  async revokeSession(
    @Arg('input', () => RevokeSessionInput, { description: 'The session to sign out.' }) input: RevokeSessionInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const caller = requireCaller(context);
    return {
      session: toSessionView(await this.tokens.revokeSession(caller, idOf(input.id, 'Session')), caller.tokenId),
    };
  }
}
