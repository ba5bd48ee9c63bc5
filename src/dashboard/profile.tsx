import { useEffect, useState } from 'preact/hooks';

import { gql } from './api';
import type {
  Language,
  ProfileQuery,
  ProfileQueryVariables,
  Theme,
  UpdateProfileMutation,
  UpdateProfileMutationVariables,
  WeekStart,
} from './graphql.generated';
import { changeLanguage, currentLanguage, LANGUAGE_NAMES, languageOf, LANGUAGES, t } from './i18n';
import { applyTheme } from './theme';
import { Field, Notice, Section, Select, useAction } from './ui';

type Me = ProfileQuery['me'];

const ME = /* GraphQL */ `
  query Profile {
    me {
      email
      name
      baseCurrency
      timezone
      weekStart
      theme
      language
    }
  }
`;
const UPDATE = /* GraphQL */ `
  mutation UpdateProfile($input: UpdateProfileInput!) {
    updateProfile(input: $input) {
      user {
        email
        name
        baseCurrency
        timezone
        weekStart
        theme
        language
      }
    }
  }
`;
// The Theme and WeekStart enums' values, as the screen says them in the language spoken.
const themes = (): Record<Theme, string> => ({
  SYSTEM: t('profile:themes.SYSTEM'),
  LIGHT: t('profile:themes.LIGHT'),
  DARK: t('profile:themes.DARK'),
});
const weekStarts = (): Record<WeekStart, string> => ({
  MONDAY: t('profile:weekStarts.MONDAY'),
  SATURDAY: t('profile:weekStarts.SATURDAY'),
  SUNDAY: t('profile:weekStarts.SUNDAY'),
});
/** The browser's language, then each language by its own name (whoever reads it finds their own). */
const languages = (): Record<string, string> => ({
  BROWSER: t('profile:browserLanguage'),
  ...Object.fromEntries(LANGUAGES.map((code) => [code.toUpperCase(), LANGUAGE_NAMES[code]])),
});
const ZONES = Object.fromEntries(Intl.supportedValuesOf('timeZone').map((zone) => [zone, zone]));

/** Set when a save switched the language: the screen, drawn anew in it, says then that the profile was saved. */
let savedInAnotherLanguage = false;

/**
 * Name, base currency (totals and spending are shown in it), time zone (which "today" dates follow), the
 * day the calendar's weeks start on, the theme, and the language the dashboard speaks (switched at once).
 */
export function Profile() {
  const [me, setMe] = useState<Me | null>(null);
  const action = useAction();
  useEffect(() => {
    const saved = savedInAnotherLanguage;
    savedInAnotherLanguage = false;
    void action.run(async () => {
      setMe((await gql<ProfileQuery, ProfileQueryVariables>(ME)).me);
      return saved ? t('profile:saved') : undefined;
    });
  }, []);

  async function save(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    await action.run(async () => {
      const input = {
        name: String(form.get('name')),
        baseCurrency: String(form.get('base_currency')).toUpperCase(),
        timezone: String(form.get('timezone')),
        weekStart: String(form.get('week_start')) as WeekStart,
        theme: String(form.get('theme')) as Theme,
        language: String(form.get('language')) as Language,
      };
      const { user } = (await gql<UpdateProfileMutation, UpdateProfileMutationVariables>(UPDATE, { input }))
        .updateProfile;
      if (user) {
        setMe(user);
        applyTheme(user.theme);
        const language = languageOf(user.language);
        savedInAnotherLanguage = language !== currentLanguage();
        await changeLanguage(language);
      }
      return t('profile:saved');
    });
  }

  return (
    <Section title={t('common:screens.profile')}>
      {me && (
        <form class="card" onSubmit={save} aria-label={t('common:screens.profile')}>
          <p>
            {t('profile:signedInAs')} <strong>{me.email}</strong>
          </p>
          <Field label={t('profile:name')} name="name" required defaultValue={me.name} errors={action.errors} />
          <Field
            label={t('profile:baseCurrency')}
            name="base_currency"
            required
            maxLength={3}
            defaultValue={me.baseCurrency}
            errors={action.errors}
            hint={t('profile:baseCurrencyHint')}
          />
          <Select
            label={t('profile:timezone')}
            name="timezone"
            options={{ [me.timezone]: me.timezone, ...ZONES }}
            initial={me.timezone}
            errors={action.errors}
          />
          <Select
            label={t('profile:language')}
            name="language"
            options={languages()}
            initial={me.language}
            errors={action.errors}
          />
          <Select
            label={t('profile:theme')}
            name="theme"
            options={themes()}
            initial={me.theme}
            errors={action.errors}
          />
          <Select
            label={t('profile:weekStart')}
            name="week_start"
            options={weekStarts()}
            initial={me.weekStart}
            errors={action.errors}
          />
          <button type="submit" disabled={action.busy}>
            {t('common:save')}
          </button>
        </form>
      )}
      <Notice outcome={action.outcome} />
    </Section>
  );
}
