import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { toUserView } from './auth.types';
import { type PasswordService, RESET_LINK_MINUTES } from './password.service';
import {
  ChangePasswordInput,
  ChangePasswordPayload,
  RequestPasswordResetInput,
  RequestPasswordResetPayload,
  ResetPasswordInput,
  ResetPasswordPayload,
} from './password.types';

@Resolver()
export class PasswordResolver {
  constructor(private readonly passwords: PasswordService) {}

  @Mutation(() => ChangePasswordPayload, {
    description:
      "Changes the signed-in account's password and revokes its other sessions and tokens (unless kept). A wrong current password counts as a failed login (RATE_LIMITED after as many); one password mutation per request.",
  })
  async changePassword(
    @Arg('input', () => ChangePasswordInput, { description: 'The current and the new password.' })
    input: ChangePasswordInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    return { user: toUserView(await this.passwords.change(requireCaller(context), input, context.address)) };
  }

  @Mutation(() => RequestPasswordResetPayload, {
    description:
      'Mails a single-use reset link when an account has the address and the server sends e-mail (SMTP_URL); the same answer either way. Throttled per e-mail and per client address (RATE_LIMITED).',
  })
  async requestPasswordReset(
    @Arg('input', () => RequestPasswordResetInput, { description: 'The e-mail address.' })
    input: RequestPasswordResetInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    await this.passwords.requestReset(input.email, context.address);
    return { linkValidMinutes: RESET_LINK_MINUTES };
  }

  @Mutation(() => ResetPasswordPayload, {
    description:
      "Sets a password with a reset link's token, uses the link up and revokes every session and token of the account; it signs nobody in. One password mutation per request.",
  })
  async resetPassword(
    @Arg('input', () => ResetPasswordInput, { description: 'The token and the new password.' })
    input: ResetPasswordInput,
  ): Promise<object> {
    return { user: toUserView(await this.passwords.reset(input.token, input.newPassword)) };
  }
}
