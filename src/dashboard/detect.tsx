import { useEffect, useState } from 'preact/hooks';

import { ApiError, gql, gqlUpload } from './api';
import { billingInSentence, calendarDate, moneyOf } from './format';
import type {
  AcceptProposalsMutation,
  AcceptProposalsMutationVariables,
  AnalyzeStatementMutation,
  AnalyzeStatementMutationVariables,
  DismissProposalsMutation,
  DismissProposalsMutationVariables,
  OpenProposalsQuery,
  OpenProposalsQueryVariables,
  StatementDateOrder,
  StatementFormat,
  StatementMappingInput,
} from './graphql.generated';
import { t } from './i18n';
import { Columns, Field, Notice, Section, Select, TableWrap, useAction } from './ui';

type Proposal = OpenProposalsQuery['subscriptionProposals'][number];
type Analysis = NonNullable<AnalyzeStatementMutation['analyzeStatement']['analysis']>;

// The proposal selection is written out in both operations (open proposals, analysis) so each stays static.
const OPEN = /* GraphQL */ `
  query OpenProposals {
    subscriptionProposals {
      id
      payee
      productName
      price {
        amount
        currency
      }
      billingCycle
      billingFrequency
      nextPaymentDate
      ongoing
      confidence
      reasons
      payments {
        date
        amount {
          amount
          currency
        }
      }
      priceSteps {
        effectiveFrom
        price {
          amount
          currency
        }
      }
      trackedSubscriptionId
    }
    me {
      baseCurrency
    }
  }
`;
const ANALYZE = /* GraphQL */ `
  mutation AnalyzeStatement($input: AnalyzeStatementInput!) {
    analyzeStatement(input: $input) {
      analysis {
        needsMapping
        columns
        sample
        transactionCount
        proposals {
          id
          payee
          productName
          price {
            amount
            currency
          }
          billingCycle
          billingFrequency
          nextPaymentDate
          ongoing
          confidence
          reasons
          payments {
            date
            amount {
              amount
              currency
            }
          }
          priceSteps {
            effectiveFrom
            price {
              amount
              currency
            }
          }
          trackedSubscriptionId
        }
      }
    }
  }
`;
const ACCEPT = /* GraphQL */ `
  mutation AcceptProposals($input: AcceptProposalsInput!) {
    acceptProposals(input: $input) {
      records {
        id
      }
    }
  }
`;
const DISMISS = /* GraphQL */ `
  mutation DismissProposals($input: DismissProposalsInput!) {
    dismissProposals(input: $input) {
      dismissedProposalIds
    }
  }
`;
const formats = (): Record<StatementFormat | '', string> => ({
  '': t('detect:recognise'),
  CSV: 'CSV',
  OFX: t('detect:ofx'),
  CAMT053: 'CAMT.053',
  MT940: 'MT940',
});
const dateOrders = (): Record<StatementDateOrder | '', string> => ({
  '': t('detect:recognise'),
  DMY: t('detect:dayFirst'),
  MDY: t('detect:monthFirst'),
  YMD: t('detect:yearFirst'),
});
const decimals = () => ({ '': t('detect:recognise'), ',': t('detect:comma'), '.': t('detect:point') });

/** A bank statement's recurring payments, proposed as records to accept or dismiss. */
export function Detect() {
  const [proposals, setProposals] = useState<Proposal[]>([]);
  const [baseCurrency, setBaseCurrency] = useState('');
  const [upload, setUpload] = useState<{ file: File; format: StatementFormat | '' } | null>(null);
  const [mapping, setMapping] = useState<Analysis | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [accepted, setAccepted] = useState<string | null>(null);
  const [analysing, setAnalysing] = useState(false);
  const action = useAction();

  useEffect(() => {
    void action.run(async () => {
      const open = await gql<OpenProposalsQuery, OpenProposalsQueryVariables>(OPEN);
      setProposals(open.subscriptionProposals);
      setBaseCurrency(open.me.baseCurrency);
    });
  }, []);

  /** Sends the file (again, with a mapping); its proposals join those still open from earlier statements. */
  const analyze = (file: File, format: StatementFormat | '', columns: StatementMappingInput | null) =>
    action.run(async () => {
      setAccepted(null);
      setAnalysing(true);
      const input = { file, format: format || null, mapping: columns };
      const {
        analyzeStatement: { analysis: found },
      } = await gqlUpload<AnalyzeStatementMutation, AnalyzeStatementMutationVariables>(
        ANALYZE,
        { input },
        'input.file',
      ).finally(() => setAnalysing(false));
      // A refusal comes as an error (gql throws on it): an answer without an analysis is not expected.
      if (!found) throw new ApiError(t('detect:notAnalysed'), 'ERROR');
      setUpload({ file, format });
      if (found.needsMapping) {
        setMapping(found);
        return t('detect:columnsNotRecognised');
      }
      setMapping(null);
      const fresh = new Set(found.proposals.map((proposal) => proposal.id));
      setProposals((open) => [...found.proposals, ...open.filter((proposal) => !fresh.has(proposal.id))]);
      return t('detect:analysed', {
        read: t('detect:transactionsRead', { count: found.transactionCount }),
        found: t('detect:recurringFound', { count: found.proposals.length }),
      });
    });

  function submitFile(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    void analyze(form.get('statement') as File, String(form.get('format')) as StatementFormat | '', null);
  }

  function submitMapping(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const chosen = Object.fromEntries(
      [...form.entries()].map(([key, value]) => [key, String(value).trim()]).filter(([, value]) => value !== ''),
    );
    if (!chosen.amount && !chosen.debit && !chosen.credit)
      return action.setOutcome({ kind: 'failed', message: t('detect:chooseAmount') });
    if (chosen.defaultCurrency) chosen.defaultCurrency = chosen.defaultCurrency.toUpperCase();
    // The form's names are StatementMappingInput's; date and payee are required by the form.
    if (upload) void analyze(upload.file, 'CSV', chosen as StatementMappingInput);
  }

  const decided = (ids: string[]) => {
    setProposals((open) => open.filter((proposal) => !ids.includes(proposal.id)));
    setSelected(new Set([...selected].filter((id) => !ids.includes(id))));
  };

  const accept = (ids: string[]) =>
    action.run(async () => {
      setAccepted(null);
      await gql<AcceptProposalsMutation, AcceptProposalsMutationVariables>(ACCEPT, { input: { ids } });
      const tracked = proposals.filter((p) => ids.includes(p.id) && p.trackedSubscriptionId !== null).length;
      decided(ids);
      const added = t('detect:recordsAdded', { count: ids.length - tracked });
      setAccepted(
        tracked > 0
          ? t('detect:addedAndUpdated', { added, updated: t('detect:recordsUpdated', { count: tracked }) })
          : t('detect:addedOnly', { added }),
      );
    });

  function dismiss(proposal: Proposal) {
    if (!window.confirm(t('detect:confirmDismiss', { payee: proposal.payee }))) return;
    void action.run(async () => {
      setAccepted(null);
      await gql<DismissProposalsMutation, DismissProposalsMutationVariables>(DISMISS, {
        input: { ids: [proposal.id] },
      });
      decided([proposal.id]);
      return t('detect:dismissed', { payee: proposal.payee });
    });
  }

  const toggle = (id: string) => {
    const next = new Set(selected);
    if (!next.delete(id)) next.add(id);
    setSelected(next);
  };
  // Files without a header are mapped by column number, from 1.
  const columns = mapping
    ? mapping.columns.length > 0
      ? Object.fromEntries(mapping.columns.map((name) => [name, name]))
      : Object.fromEntries(
          (mapping.sample[0] ?? []).map((_, index) => [index + 1, t('detect:column', { number: index + 1 })]),
        )
    : {};
  const choose = (none: string) => ({ '': none, ...columns });
  const sorted = [...proposals].sort((a, b) => b.confidence - a.confidence);

  return (
    <Section title={t('common:screens.detect')}>
      <p>{t('detect:intro')}</p>
      <form class="card" onSubmit={submitFile} aria-label={t('detect:uploadStatement')} aria-busy={analysing}>
        <h2>{t('detect:uploadStatement')}</h2>
        <div class="field">
          <label for="statement-file">{t('detect:statementFile')}</label>
          <input
            id="statement-file"
            name="statement"
            type="file"
            accept=".csv,.ofx,.qfx,.xml,.sta,.mt940,.txt"
            required
          />
        </div>
        <Select label={t('detect:format')} name="format" options={formats()} />
        <button type="submit" disabled={action.busy}>
          {t('detect:analyse')}
        </button>
        {analysing && <p role="status">{t('detect:analysing')}</p>}
      </form>
      <Notice outcome={action.outcome} />
      {accepted && (
        <p class="notice done" role="status">
          {accepted} <a href="#/subscriptions">{t('detect:seeSubscriptions')}</a>
        </p>
      )}
      {mapping && (
        <form class="card" key={mapping.columns.join()} onSubmit={submitMapping} aria-label={t('detect:chooseColumns')}>
          <h2>{t('detect:chooseColumns')}</h2>
          <TableWrap label={t('detect:firstRows')}>
            <table aria-label={t('detect:firstRows')}>
              {mapping.columns.length > 0 && <Columns names={mapping.columns} />}
              <tbody>
                {mapping.sample.map((row, index) => (
                  <tr key={index}>
                    {row.map((cell, column) => (
                      <td key={column}>{cell}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <div class="grid">
            <Select
              label={t('detect:date')}
              name="date"
              options={choose(t('detect:chooseAColumn'))}
              initial=""
              required
            />
            <Select
              label={t('detect:payee')}
              name="payee"
              options={choose(t('detect:chooseAColumn'))}
              initial=""
              required
            />
            <Select label={t('detect:description')} name="description" options={choose(t('common:none'))} initial="" />
            <Select label={t('detect:amountSigned')} name="amount" options={choose(t('common:none'))} initial="" />
            <Select label={t('detect:debit')} name="debit" options={choose(t('common:none'))} initial="" />
            <Select label={t('detect:credit')} name="credit" options={choose(t('common:none'))} initial="" />
            <Select
              label={t('detect:currencyOptional')}
              name="currency"
              options={choose(t('common:none'))}
              initial=""
            />
            <Select label={t('detect:dateOrder')} name="dateOrder" options={dateOrders()} />
            <Select label={t('detect:decimalSeparator')} name="decimalSeparator" options={decimals()} />
            <Field
              label={t('detect:defaultCurrency')}
              name="defaultCurrency"
              maxLength={3}
              defaultValue={baseCurrency}
              hint={t('detect:defaultCurrencyHint')}
            />
          </div>
          <button type="submit" disabled={action.busy}>
            {t('detect:analyseWithColumns')}
          </button>
        </form>
      )}
      <h2>{t('detect:proposals')}</h2>
      {sorted.length === 0 ? (
        <p>{t('detect:noProposals')}</p>
      ) : (
        <>
          <button
            type="button"
            disabled={selected.size === 0 || action.busy}
            onClick={() => void accept([...selected])}
          >
            {t('detect:acceptSelected', { number: selected.size })}
          </button>
          {sorted.map((proposal) => (
            <ProposalCard
              key={proposal.id}
              proposal={proposal}
              selected={selected.has(proposal.id)}
              busy={action.busy}
              onToggle={() => toggle(proposal.id)}
              onAccept={() => void accept([proposal.id])}
              onDismiss={() => dismiss(proposal)}
            />
          ))}
        </>
      )}
    </Section>
  );
}

function ProposalCard(props: {
  proposal: Proposal;
  selected: boolean;
  busy: boolean;
  onToggle: () => void;
  onAccept: () => void;
  onDismiss: () => void;
}) {
  const { proposal: p } = props;
  const title = `proposal-${p.id}`;
  return (
    <article class="card proposal" aria-labelledby={title}>
      <h3 id={title}>
        {p.payee}
        {!p.ongoing && <span class="badge"> {t('detect:stopped')}</span>}
        {p.trackedSubscriptionId !== null && <span class="badge"> {t('detect:alreadyTracked')}</span>}
      </h3>
      {p.productName && <p>{t('detect:catalogueProduct', { name: p.productName })}</p>}
      <p>
        <strong>{moneyOf(p.price)}</strong>{' '}
        {t('detect:summary', {
          period: billingInSentence(p.billingCycle, p.billingFrequency),
          date: calendarDate(p.nextPaymentDate),
          confidence: Math.round(p.confidence * 100),
        })}
      </p>
      {p.trackedSubscriptionId !== null && <p>{t('detect:alreadyTrack')}</p>}
      <ul>
        {p.reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
      <details>
        <summary>
          {t('detect:paymentHistory', { count: p.payments.length })}
          {p.priceSteps.length > 1 ? `, ${t('detect:priceChanges', { count: p.priceSteps.length - 1 })}` : ''}
        </summary>
        <table aria-label={t('detect:paymentsTo', { payee: p.payee })}>
          <Columns names={[t('detect:date'), t('detect:amount')]} />
          <tbody>
            {p.payments.map((payment, index) => (
              <tr key={index}>
                <td>{calendarDate(payment.date)}</td>
                <td>{moneyOf(payment.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {p.priceSteps.length > 1 && (
          <ul aria-label={t('detect:pricesOf', { payee: p.payee })}>
            {p.priceSteps.map((step) => (
              <li key={step.effectiveFrom}>
                {t('detect:priceFrom', { price: moneyOf(step.price), date: calendarDate(step.effectiveFrom) })}
              </li>
            ))}
          </ul>
        )}
      </details>
      <label>
        <input type="checkbox" checked={props.selected} onChange={props.onToggle} />{' '}
        {t('detect:select', { payee: p.payee })}
      </label>
      <button
        type="button"
        disabled={props.busy}
        onClick={props.onAccept}
        aria-label={t('detect:acceptNamed', { payee: p.payee })}
      >
        {t('detect:accept')}
      </button>
      <button
        type="button"
        class="danger"
        disabled={props.busy}
        onClick={props.onDismiss}
        aria-label={t('detect:dismissNamed', { payee: p.payee })}
      >
        {t('detect:dismiss')}
      </button>
    </article>
  );
}
