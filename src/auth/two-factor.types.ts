import { Field, InputType } from 'type-graphql';

import { MutationPayload } from '../platform/graphql/payloads';
import { UserView } from './auth.types';

@InputType('ConfirmTwoFactorInput', { description: 'A code of the authenticator app just enrolled.' })
export class ConfirmTwoFactorInput {
  @Field({ description: 'The six-digit code the app shows now.' })
  code!: string;
}

@InputType('DisableTwoFactorInput', { description: 'Proof of the second factor, to turn it off.' })
export class DisableTwoFactorInput {
  @Field({ description: 'A code of your authenticator app, or an unused recovery code.' })
  code!: string;
}

@InputType('RegenerateRecoveryCodesInput', {
  description: 'Proof of the second factor, to replace the recovery codes.',
})
export class RegenerateRecoveryCodesInput {
  @Field({ description: 'A code of your authenticator app, or an unused recovery code.' })
  code!: string;
}

const RECOVERY_CODES = {
  recoveryCodes: {
    type: () => [String],
    description:
      'Ten single-use codes that stand in for the app (when it is lost), shown this once only: keep them safe.',
  },
};

export const StartTwoFactorEnrolmentPayload = MutationPayload(
  'StartTwoFactorEnrolmentPayload',
  'uri',
  () => String,
  'What an authenticator app needs to add your account; 2FA is on once a code of it is confirmed. The result is the otpauth:// URI (TOTP: SHA-1, 6 digits, 30 seconds) the QR code holds.',
  {
    secret: { type: () => String, description: 'The secret in Base32, for typing into an app that cannot scan.' },
    qrCode: {
      type: () => String,
      description: 'The QR code of the URI, as an SVG image in a data: URL (drawn by the server).',
    },
  },
);
export const ConfirmTwoFactorPayload = MutationPayload(
  'ConfirmTwoFactorPayload',
  'user',
  () => UserView,
  'Your account, with 2FA on.',
  RECOVERY_CODES,
);
export const DisableTwoFactorPayload = MutationPayload(
  'DisableTwoFactorPayload',
  'user',
  () => UserView,
  'Your account, with 2FA off.',
);
export const RegenerateRecoveryCodesPayload = MutationPayload(
  'RegenerateRecoveryCodesPayload',
  'user',
  () => UserView,
  'Your account, with new recovery codes.',
  RECOVERY_CODES,
);
