import { Arg, Ctx, FieldResolver, Int, Mutation, Resolver, Root } from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import type { AuthService } from './auth.service';
import { toUserView, UserView } from './auth.types';
import type { TwoFactorService } from './two-factor.service';
import {
  ConfirmTwoFactorInput,
  ConfirmTwoFactorPayload,
  DisableTwoFactorInput,
  DisableTwoFactorPayload,
  RegenerateRecoveryCodesInput,
  RegenerateRecoveryCodesPayload,
  StartTwoFactorEnrolmentPayload,
} from './two-factor.types';

type Status = Awaited<ReturnType<TwoFactorService['status']>>;

@Resolver(() => UserView)
export class TwoFactorResolver {
  /** One read per user object answered, however many of its 2FA fields are asked. */
  private readonly statuses = new WeakMap<UserView, Promise<Status>>();

  constructor(
    private readonly twoFactor: TwoFactorService,
    private readonly auth: AuthService,
  ) {}

  @FieldResolver(() => Boolean, { description: 'Whether sign-in asks for a second factor (TOTP).' })
  async twoFactorEnabled(@Root() user: UserView): Promise<boolean> {
    return (await this.statusOf(user)).enabled;
  }

  @FieldResolver(() => Int, { description: 'Recovery codes not used yet (0 while 2FA is off).' })
  async recoveryCodesLeft(@Root() user: UserView): Promise<number> {
    return (await this.statusOf(user)).recoveryCodesLeft;
  }

  @Mutation(() => StartTwoFactorEnrolmentPayload, {
    description:
      'Starts turning on 2FA: a new secret to add to an authenticator app (it takes no input; another call replaces a pending one). Nothing changes at sign-in until confirmTwoFactor.',
  })
  async startTwoFactorEnrolment(@Ctx() context: GraphQLContext): Promise<object> {
    return this.twoFactor.startEnrolment(requireCaller(context));
  }

  @Mutation(() => ConfirmTwoFactorPayload, {
    description:
      'Turns 2FA on with a code of the pending enrolment, and answers ten recovery codes, this once. A wrong code counts as a failed login.',
  })
  async confirmTwoFactor(
    @Arg('input', () => ConfirmTwoFactorInput, { description: 'The code.' }) input: ConfirmTwoFactorInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const caller = requireCaller(context);
    const recoveryCodes = await this.twoFactor.confirm(caller, input.code, context.address);
    return { user: toUserView(await this.auth.me(caller)), recoveryCodes };
  }

  @Mutation(() => DisableTwoFactorPayload, {
    description: 'Turns 2FA off, given a code; the secret and recovery codes are deleted.',
  })
  async disableTwoFactor(
    @Arg('input', () => DisableTwoFactorInput, { description: 'The code.' }) input: DisableTwoFactorInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const caller = requireCaller(context);
    await this.twoFactor.disable(caller, input.code, context.address);
    return { user: toUserView(await this.auth.me(caller)) };
  }

  @Mutation(() => RegenerateRecoveryCodesPayload, {
    description: 'Replaces the recovery codes with ten new ones, given a code, and answers them this once.',
  })
  async regenerateRecoveryCodes(
    @Arg('input', () => RegenerateRecoveryCodesInput, { description: 'The code.' }) input: RegenerateRecoveryCodesInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const caller = requireCaller(context);
    const recoveryCodes = await this.twoFactor.regenerateRecoveryCodes(caller, input.code, context.address);
    return { user: toUserView(await this.auth.me(caller)), recoveryCodes };
  }

  private statusOf(user: UserView): Promise<Status> {
    let status = this.statuses.get(user);
    if (!status) {
      status = this.twoFactor.status(user.id);
      this.statuses.set(user, status);
    }
    return status;
  }
}
