import { useEffect, useState } from 'preact/hooks';

import { gql } from './api';
import type {
  ProfileQuery,
  ProfileQueryVariables,
  UpdateProfileMutation,
  UpdateProfileMutationVariables,
} from './graphql.generated';
import { Field, Notice, Section, Select, useAction } from './ui';

type Me = ProfileQuery['me'];

const ME = /* GraphQL */ `
  query Profile {
    me {
      email
      name
      baseCurrency
      timezone
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
      }
    }
  }
`;
const ZONES = Object.fromEntries(Intl.supportedValuesOf('timeZone').map((zone) => [zone, zone]));

/** Name, base currency (totals and spending are shown in it) and time zone (which "today" dates follow). */
export function Profile() {
  const [me, setMe] = useState<Me | null>(null);
  const action = useAction();
  useEffect(() => {
    void action.run(async () => setMe((await gql<ProfileQuery, ProfileQueryVariables>(ME)).me));
  }, []);

  async function save(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    await action.run(async () => {
      const input = {
        name: String(form.get('name')),
        baseCurrency: String(form.get('base_currency')).toUpperCase(),
        timezone: String(form.get('timezone')),
      };
      const { user } = (await gql<UpdateProfileMutation, UpdateProfileMutationVariables>(UPDATE, { input }))
        .updateProfile;
      if (user) setMe(user);
      return 'Profile saved';
    });
  }

  return (
    <Section title="Profile">
      {me && (
        <form class="card" onSubmit={save} aria-label="Profile">
          <p>
            Signed in as <strong>{me.email}</strong>
          </p>
          <Field label="Name" name="name" required defaultValue={me.name} errors={action.errors} />
          <Field
            label="Base currency"
            name="base_currency"
            required
            maxLength={3}
            defaultValue={me.baseCurrency}
            errors={action.errors}
            hint="Totals and spending are shown in it"
          />
          <Select
            label="Time zone"
            name="timezone"
            options={{ [me.timezone]: me.timezone, ...ZONES }}
            initial={me.timezone}
            errors={action.errors}
          />
          <button type="submit" disabled={action.busy}>
            Save
          </button>
        </form>
      )}
      <Notice outcome={action.outcome} />
    </Section>
  );
}
