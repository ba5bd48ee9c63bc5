import { Field, InputType, Int } from 'type-graphql';

import { MutationPayload } from '../platform/graphql/payloads';
import { UserView } from './auth.types';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password';

const NEW_PASSWORD = `The new password, ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`;

@InputType('ChangePasswordInput', { description: "A new password for the signed-in account, and its sessions' fate." })
export class ChangePasswordInput {
  @Field({ description: 'The password it has now.' }) currentPassword!: string;
  @Field({ description: NEW_PASSWORD }) newPassword!: string;
  @Field({
    defaultValue: false,
    description:
      "Keep the account's other sessions and tokens signed in; by default every one but this request's is revoked.",
  })
  keepOtherSessions!: boolean;
}

@InputType('RequestPasswordResetInput', { description: 'The account whose password was forgotten.' })
export class RequestPasswordResetInput {
  @Field({ description: 'Its e-mail address (spaces and case do not matter).' }) email!: string;
}

@InputType('ResetPasswordInput', { description: 'A reset link and the password it sets.' })
export class ResetPasswordInput {
  @Field({ description: 'The token of the reset link (its `token` parameter).' }) token!: string;
  @Field({ description: NEW_PASSWORD }) newPassword!: string;
}

export const ChangePasswordPayload = MutationPayload(
  'ChangePasswordPayload',
  'user',
  () => UserView,
  'The account whose password was changed.',
);
export const RequestPasswordResetPayload = MutationPayload(
  'RequestPasswordResetPayload',
  'linkValidMinutes',
  () => Int,
  'The same answer whether or not an account has the address: a mailed link, if any, works for linkValidMinutes.',
);
export const ResetPasswordPayload = MutationPayload(
  'ResetPasswordPayload',
  'user',
  () => UserView,
  'The account whose password was set: not signed in (log in with the new password).',
);
