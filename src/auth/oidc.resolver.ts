import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';

import type { GraphQLContext } from '../platform/graphql/context';
import { toUserView } from './auth.types';
import type { OidcService } from './oidc.service';
import { CompleteSingleSignOnInput, CompleteSingleSignOnPayload, SignInMethodsView } from './oidc.types';

@Resolver()
export class OidcResolver {
  constructor(private readonly oidc: OidcService) {}

  @Query(() => SignInMethodsView, { description: 'How people sign in on this server; open to anyone.' })
  signInMethods(): SignInMethodsView {
    return this.oidc.signInMethods();
  }

  @Mutation(() => CompleteSingleSignOnPayload, {
    description:
      'Exchanges the one-time code of a finished single sign-on for a session. An unknown, used or expired code is an UNAUTHENTICATED error, as a wrong password is.',
  })
  async completeSingleSignOn(
    @Arg('input', () => CompleteSingleSignOnInput, { description: 'The code.' }) input: CompleteSingleSignOnInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const session = await this.oidc.complete(input.code, context.userAgent);
    return { user: toUserView(session.user), token: session.token };
  }
}
