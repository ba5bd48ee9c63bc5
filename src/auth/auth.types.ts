import { CurrencyResolver, DateTimeResolver, EmailAddressResolver } from 'graphql-scalars';
import { Field, InputType, ObjectType, registerEnumType } from 'type-graphql';

import { Node } from '../platform/graphql/node';
import { MutationPayload } from '../platform/graphql/payloads';
import { toIsoMicros } from '../platform/wire-formats';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password';
import type { User } from './user.entity';

/** The days a week may start on, by their ISO numbers (the stored values). */
export const WeekStart = { MONDAY: 1, SATURDAY: 6, SUNDAY: 7 } as const;

registerEnumType(WeekStart, {
  name: 'WeekStart',
  description: 'The day weeks start on in calendars.',
  valuesConfig: {
    MONDAY: { description: 'Monday (ISO 8601, and most of Europe).' },
    SATURDAY: { description: 'Saturday (much of the Middle East).' },
    SUNDAY: { description: 'Sunday (the Americas, Japan and others).' },
  },
});

/** How the dashboard looks (the stored values). */
export enum Theme {
  SYSTEM = 'system',
  LIGHT = 'light',
  DARK = 'dark',
}

registerEnumType(Theme, {
  name: 'Theme',
  description: 'How the dashboard looks.',
  valuesConfig: {
    SYSTEM: { description: 'As the device is set: light or dark.' },
    LIGHT: { description: 'Light, whatever the device.' },
    DARK: { description: 'Dark, whatever the device.' },
  },
});

/** The dashboard's language (the stored values): the browser's, or one of the catalogues it has. */
export enum Language {
  BROWSER = 'browser',
  EN = 'en',
  DE = 'de',
  FR = 'fr',
  ES = 'es',
}

registerEnumType(Language, {
  name: 'Language',
  description: 'The language the dashboard speaks.',
  valuesConfig: {
    BROWSER: { description: "The browser's first language the dashboard has, else English." },
    EN: { description: 'English.' },
    DE: { description: 'German (Deutsch).' },
    FR: { description: 'French (Français).' },
    ES: { description: 'Spanish (Español).' },
  },
});

@ObjectType('User', {
  implements: Node,
  description: 'An account. Money totals are given in baseCurrency; "today" is decided in timezone.',
})
export class UserView {
  id!: number;

  @Field(() => EmailAddressResolver, { description: 'The e-mail address it signs in with.' })
  email!: string;

  @Field({ description: 'The name it goes by.' })
  name!: string;

  @Field(() => CurrencyResolver, { description: 'The currency totals, budgets and spending are shown in.' })
  baseCurrency!: string;

  @Field({ description: 'The IANA zone name "today" and its records follow.' })
  timezone!: string;

  @Field(() => WeekStart, { description: 'The day weeks start on in calendars.' })
  weekStart!: number;

  @Field(() => Theme, { description: 'How the dashboard looks.' })
  theme!: Theme;

  @Field(() => Language, { description: 'The language the dashboard speaks.' })
  language!: Language;

  @Field(() => DateTimeResolver, { description: 'When the account was made.' })
  createdAt!: string;
}

/** A session's results: the token and the user it stands for. */
export const SESSION_FIELDS = {
  token: {
    type: () => String,
    description: 'The access token: send it as `Authorization: Bearer <token>`; null when refused.',
  },
};

export const SignUpPayload = MutationPayload(
  'SignUpPayload',
  'user',
  () => UserView,
  'The new account, signed in.',
  SESSION_FIELDS,
);
export const LoginPayload = MutationPayload('LoginPayload', 'user', () => UserView, 'A session.', SESSION_FIELDS);
export const LogoutPayload = MutationPayload(
  'LogoutPayload',
  'user',
  () => UserView,
  'The user whose token was revoked.',
);

@InputType('SignUpInput', { description: 'A new account.' })
export class SignUpInput {
  @Field(() => EmailAddressResolver, { description: 'The e-mail address to sign in with.' })
  email!: string;

  @Field({ description: `The password, ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.` })
  password!: string;

  @Field({ description: 'The name to go by.' })
  name!: string;

  @Field(() => String, {
    nullable: true,
    description: 'An invitation code from an admin: needed while sign-up is INVITE_ONLY, used up by this sign-up.',
  })
  invitationCode?: string | null;
}

@InputType('LoginInput', { description: 'The credentials of an account.' })
export class LoginInput {
  @Field({ description: 'Its e-mail address (spaces and case do not matter).' })
  email!: string;

  @Field({ description: 'Its password.' })
  password!: string;

  @Field(() => String, {
    nullable: true,
    description:
      'With two-factor on: the code of its authenticator app, or an unused recovery code. Without it such a login is a TWO_FACTOR_REQUIRED error.',
  })
  code?: string | null;
}

export function toUserView(user: User): UserView {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    baseCurrency: user.baseCurrency,
    timezone: user.timezone,
    weekStart: user.weekStart,
    theme: user.theme as Theme,
    language: user.language as Language,
    createdAt: toIsoMicros(user.createdAt)!,
  };
}
