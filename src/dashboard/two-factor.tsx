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
import { t } from './i18n';
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
        return t('two-factor:turnedOn');
      }
      if (choice === 'disable') {
        if (!confirm(t('two-factor:confirmOff'))) return;
        setStatus(
          (await gql<DisableTwoFactorMutation, DisableTwoFactorMutationVariables>(DISABLE, { input })).disableTwoFactor
            .user,
        );
        setRecoveryCodes(null);
        return t('two-factor:turnedOff');
      }
      if (!confirm(t('two-factor:confirmRegenerate'))) return;
      const made = (
        await gql<RegenerateRecoveryCodesMutation, RegenerateRecoveryCodesMutationVariables>(REGENERATE, { input })
      ).regenerateRecoveryCodes;
      setRecoveryCodes(made.recoveryCodes ?? null);
      setStatus(made.user);
      return t('two-factor:regenerated');
    });
    if (ok) form.reset();
  }

  if (!status) return <Notice outcome={action.outcome} />;
  return (
    <div class="card">
      <h2>{t('two-factor:title')}</h2>
      <p>{status.twoFactorEnabled ? t('two-factor:on', { left: status.recoveryCodesLeft }) : t('two-factor:off')}</p>
      {recoveryCodes && <RecoveryCodes codes={recoveryCodes} onSaved={() => setRecoveryCodes(null)} />}
      {!status.twoFactorEnabled && !enrolment && (
        <button type="button" onClick={() => void start()} disabled={action.busy}>
          {t('two-factor:turnOn')}
        </button>
      )}
      {enrolment && (
        <div>
          <p>{t('two-factor:scan')}</p>
          <img src={enrolment.qrCode ?? undefined} alt={t('two-factor:qrCode')} width={200} height={200} />
          <p class="secret">
            {t('two-factor:cantScan')} <code aria-label={t('two-factor:key')}>{enrolment.secret}</code>
          </p>
        </div>
      )}
      {(enrolment || status.twoFactorEnabled) && (
        <form onSubmit={(event) => void submit(event as SubmitEvent)} aria-label={t('auth:code')}>
          <Field
            label={t('two-factor:code')}
            name="code"
            required
            autoComplete="one-time-code"
            hint={enrolment ? undefined : t('two-factor:codeHint')}
            errors={action.errors}
          />
          {enrolment ? (
            <button type="submit" disabled={action.busy}>
              {t('two-factor:confirm')}
            </button>
          ) : (
            <>
              <button type="submit" value="regenerate" disabled={action.busy}>
                {t('two-factor:regenerate')}
              </button>
              <button type="submit" value="disable" class="danger" disabled={action.busy}>
                {t('two-factor:turnOff')}
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
    <div class="secret" role="region" aria-label={t('two-factor:recoveryCodes')}>
      <p>
        <strong>{t('two-factor:saveNow')}</strong> {t('two-factor:saveWhy')}
      </p>
      <ol class="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <button type="button" onClick={onSaved}>
        {t('two-factor:saved')}
      </button>
    </div>
  );
}
