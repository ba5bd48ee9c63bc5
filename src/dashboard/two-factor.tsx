import { useEffect, useState } from 'preact/hooks';

import { gql } from './api';
import type {
  ConfirmTwoFactorMutation,
  ConfirmTwoFactorMutationVariables,
  DisableTwoFactorMutation,
  DisableTwoFactorMutationVariables,
  RegenerateRecoveryCodesMutation,
  RegenerateRecoveryCodesMutationVariables,
  StartTwoFactorEnrolmentMutation,
  StartTwoFactorEnrolmentMutationVariables,
  TwoFactorStatusQuery,
  TwoFactorStatusQueryVariables,
} from './graphql.generated';
import { Field, Notice, useAction } from './ui';

type Status = TwoFactorStatusQuery['me'];
type Enrolment = StartTwoFactorEnrolmentMutation['startTwoFactorEnrolment'];

const STATUS = /* GraphQL */ `
  query TwoFactorStatus {
    me {
      twoFactorEnabled
      recoveryCodesLeft
    }
  }
`;
const START = /* GraphQL */ `
  mutation StartTwoFactorEnrolment {
    startTwoFactorEnrolment {
      secret
      qrCode
    }
  }
`;
const CONFIRM = /* GraphQL */ `
  mutation ConfirmTwoFactor($input: ConfirmTwoFactorInput!) {
    confirmTwoFactor(input: $input) {
      user {
        twoFactorEnabled
        recoveryCodesLeft
      }
      recoveryCodes
    }
  }
`;
const DISABLE = /* GraphQL */ `
  mutation DisableTwoFactor($input: DisableTwoFactorInput!) {
    disableTwoFactor(input: $input) {
      user {
        twoFactorEnabled
        recoveryCodesLeft
      }
    }
  }
`;
const REGENERATE = /* GraphQL */ `
  mutation RegenerateRecoveryCodes($input: RegenerateRecoveryCodesInput!) {
    regenerateRecoveryCodes(input: $input) {
      user {
        twoFactorEnabled
        recoveryCodesLeft
      }
      recoveryCodes
    }
  }
`;

/**
 * Two-factor sign-in: turn it on (a QR code, or the key typed in, then a code to confirm), turn it off, or get
 * new recovery codes (both ask a code). Recovery codes are shown once, right after they are made.
 */
export function TwoFactor() {
  const [status, setStatus] = useState<Status | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const action = useAction();
  useEffect(() => {
    void action.run(async () => setStatus((await gql<TwoFactorStatusQuery, TwoFactorStatusQueryVariables>(STATUS)).me));
  }, []);

  const start = () =>
    action.run(async () => {
      setEnrolment(
        (await gql<StartTwoFactorEnrolmentMutation, StartTwoFactorEnrolmentMutationVariables>(START))
          .startTwoFactorEnrolment,
      );
    });

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const input = { code: String(new FormData(form).get('code')) };
    const choice = (event.submitter as HTMLButtonElement | null)?.value;
    const ok = await action.run(async () => {
      if (!status?.twoFactorEnabled) {
        const made = (await gql<ConfirmTwoFactorMutation, ConfirmTwoFactorMutationVariables>(CONFIRM, { input }))
          .confirmTwoFactor;
        setEnrolment(null);
        setRecoveryCodes(made.recoveryCodes ?? null);
        setStatus(made.user);
        return 'Two-factor is on';
      }
      if (choice === 'disable') {
        if (!confirm('Turn off two-factor? Signing in will ask only for your password.')) return;
        setStatus(
          (await gql<DisableTwoFactorMutation, DisableTwoFactorMutationVariables>(DISABLE, { input })).disableTwoFactor
            .user,
        );
        setRecoveryCodes(null);
        return 'Two-factor is off';
      }
      if (!confirm('Make new recovery codes? Your current ones will stop working.')) return;
      const made = (
        await gql<RegenerateRecoveryCodesMutation, RegenerateRecoveryCodesMutationVariables>(REGENERATE, { input })
      ).regenerateRecoveryCodes;
      setRecoveryCodes(made.recoveryCodes ?? null);
      setStatus(made.user);
      return 'New recovery codes made';
    });
    if (ok) form.reset();
  }

  if (!status) return <Notice outcome={action.outcome} />;
  return (
    <div class="card">
      <h2>Two-factor sign-in</h2>
      <p>
        {status.twoFactorEnabled
          ? `On: signing in asks for a code from your authenticator app. Recovery codes left: ${status.recoveryCodesLeft}.`
          : 'Off: signing in asks only for your password.'}
      </p>
      {recoveryCodes && <RecoveryCodes codes={recoveryCodes} onSaved={() => setRecoveryCodes(null)} />}
      {!status.twoFactorEnabled && !enrolment && (
        <button type="button" onClick={() => void start()} disabled={action.busy}>
          Turn on
        </button>
      )}
      {enrolment && (
        <div>
          <p>Scan this with your authenticator app, then enter the code it shows.</p>
          <img src={enrolment.qrCode ?? undefined} alt="QR code for your authenticator app" width={200} height={200} />
          <p class="secret">
            Can’t scan? Enter this key: <code aria-label="Key for manual entry">{enrolment.secret}</code>
          </p>
        </div>
      )}
      {(enrolment || status.twoFactorEnabled) && (
        <form onSubmit={(event) => void submit(event as SubmitEvent)} aria-label="Two-factor code">
          <Field
            label="Code"
            name="code"
            required
            autoComplete="one-time-code"
            hint={enrolment ? undefined : 'From your app, or a recovery code'}
            errors={action.errors}
          />
          {enrolment ? (
            <button type="submit" disabled={action.busy}>
              Confirm
            </button>
          ) : (
            <>
              <button type="submit" value="regenerate" disabled={action.busy}>
                New recovery codes
              </button>
              <button type="submit" value="disable" class="danger" disabled={action.busy}>
                Turn off
              </button>
            </>
          )}
        </form>
      )}
      <Notice outcome={action.outcome} />
    </div>
  );
}

/** The recovery codes, this once: the user is told to save them before they go. */
function RecoveryCodes({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  return (
    <div class="secret" role="region" aria-label="Recovery codes">
      <p>
        <strong>Save these recovery codes now.</strong> Each signs you in once if you lose your phone. They will not be
        shown again.
      </p>
      <ol class="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <button type="button" onClick={onSaved}>
        I saved them
      </button>
    </div>
  );
}
