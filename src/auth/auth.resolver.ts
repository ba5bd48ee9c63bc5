import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import type { NodeLookup } from '../platform/graphql/node';
import type { AuthService, Session } from './auth.service';
import {
  LoginInput,
  LoginPayload,
  LogoutPayload,
  SignUpInput,
  SignUpPayload,
  toUserView,
  UserView,
} from './auth.types';

/** `node(id:)` for a user: the caller themself, no one else. */
export function userNodeLookup(auth: AuthService): NodeLookup {
  return async (caller, id) => (id === caller.userId ? toUserView(await auth.me(caller)) : null);
}

@Resolver()
export class AuthResolver {
  constructor(private readonly auth: AuthService) {}

  @Query(() => UserView, { description: 'The signed-in user.' })
  async me(@Ctx() context: GraphQLContext): Promise<UserView> {
    return toUserView(await this.auth.me(requireCaller(context)));
  }

  @Mutation(() => SignUpPayload, {
    description: 'Creates an account (while sign-up is open) and signs it in; one signUp or login per request.',
  })
  async signUp(
    @Arg('input', () => SignUpInput, { description: 'The new account.' }) input: SignUpInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    return toSession(await this.auth.signUp(input, context.userAgent));
  }

  @Mutation(() => LoginPayload, {
    description:
      'Signs in. Wrong credentials (or a wrong two-factor code) are an UNAUTHENTICATED error, a missing two-factor code TWO_FACTOR_REQUIRED and too many attempts RATE_LIMITED (errors, not userErrors); one signUp or login per request.',
  })
  async login(
    @Arg('input', () => LoginInput, { description: 'The credentials.' }) input: LoginInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    return toSession(
      await this.auth.login(input.email, input.password, context.address, {
        code: input.code ?? undefined,
        device: context.userAgent,
      }),
    );
  }

  @Mutation(() => LogoutPayload, {
    description:
      'Revokes the token this request was made with (it takes no input: the token is the input); a READ_ONLY token may too.',
  })
  async logout(@Ctx() context: GraphQLContext): Promise<object> {
    const caller = requireCaller(context);
    const user = toUserView(await this.auth.me(caller));
    await this.auth.logout(caller);
    return { user };
  }
}

function toSession(session: Session): object {
  return { user: toUserView(session.user), token: session.token };
}
