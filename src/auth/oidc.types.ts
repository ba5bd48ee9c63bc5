import { Field, InputType, ObjectType } from 'type-graphql';

import { MutationPayload } from '../platform/graphql/payloads';
import { SESSION_FIELDS, UserView } from './auth.types';

@ObjectType('SignInMethods', { description: 'How people sign in on this server: asked before signing in.' })
export class SignInMethodsView {
  @Field({
    description:
      'Whether single sign-on (OpenID Connect) is set up: send the browser to singleSignOnUrl, which comes back to the dashboard with a one-time code for completeSingleSignOn.',
  })
  singleSignOn!: boolean;

  @Field(() => String, { nullable: true, description: 'Where a single sign-on starts; null when it is not set up.' })
  singleSignOnUrl!: string | null;

  @Field({
    description: 'Whether e-mail and password sign in and sign up (false with OIDC_ONLY: login and signUp refuse).',
  })
  passwordLogin!: boolean;
}

@InputType('CompleteSingleSignOnInput', { description: 'The end of a single sign-on.' })
export class CompleteSingleSignOnInput {
  @Field({
    description:
      'The one-time code the sign-on handed the dashboard (`#sso-code=` in its address); used once, within a minute.',
  })
  code!: string;
}

export const CompleteSingleSignOnPayload = MutationPayload(
  'CompleteSingleSignOnPayload',
  'user',
  () => UserView,
  'The account signed in by single sign-on.',
  SESSION_FIELDS,
);
