import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import type { AuthService, Session } from './auth.service';
import { AuthPayload, SignUpInput, toUserView, UserView } from './auth.types';

@Resolver()
export class AuthResolver {
  constructor(private readonly auth: AuthService) {}

  @Query(() => UserView, { description: 'The signed-in user.' })
  async me(@Ctx() context: GraphQLContext): Promise<UserView> {
    return toUserView(await this.auth.me(requireCaller(context)));
  }

  @Mutation(() => AuthPayload, { description: 'Creates an account (while sign-up is open) and signs it in.' })
  async signUp(@Arg('input', () => SignUpInput) input: SignUpInput): Promise<AuthPayload> {
    return toAuthPayload(await this.auth.signUp(input));
  }

  @Mutation(() => AuthPayload)
  async login(
    @Arg('email', () => String) email: string,
    @Arg('password', () => String) password: string,
    @Ctx() context: GraphQLContext,
  ): Promise<AuthPayload> {
    return toAuthPayload(await this.auth.login(email, password, context.address));
  }

  @Mutation(() => Boolean, { description: 'Revokes the token this request was made with.' })
  async logout(@Ctx() context: GraphQLContext): Promise<boolean> {
    await this.auth.logout(requireCaller(context));
    return true;
  }
}

function toAuthPayload(session: Session): AuthPayload {
  return { user: toUserView(session.user), token: session.token };
}
