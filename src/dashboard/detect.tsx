import { useEffect, useState } from 'preact/hooks';

import { ApiError, gql, gqlUpload } from './api';
import { calendarDate, moneyOf } from './format';
import type {
  AcceptProposalsMutation,
  AcceptProposalsMutationVariables,
  AnalyzeStatementMutation,
  AnalyzeStatementMutationVariables,
  BillingCycle,
  DismissProposalsMutation,
  DismissProposalsMutationVariables,
  OpenProposalsQuery,
  OpenProposalsQueryVariables,
  StatementDateOrder,
  StatementFormat,
  StatementMappingInput,
} from './graphql.generated';
import { Columns, Field, Notice, Section, Select, useAction } from './ui';

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
const FORMATS: Record<StatementFormat | '', string> = {
  '': 'Recognise automatically',
  CSV: 'CSV',
  OFX: 'OFX or QFX',
  CAMT053: 'CAMT.053',
  MT940: 'MT940',
};
const DATE_ORDERS: Record<StatementDateOrder | '', string> = {
  '': 'Recognise automatically',
  DMY: 'Day first',
  MDY: 'Month first',
  YMD: 'ISO (year first)',
};
const DECIMALS = { '': 'Recognise automatically', ',': 'Comma (1.234,56)', '.': 'Point (1,234.56)' };
const UNITS: Record<BillingCycle, string> = { DAILY: 'day', WEEKLY: 'week', MONTHLY: 'month', YEARLY: 'year' };
const ONCE: Record<BillingCycle, string> = { DAILY: 'daily', WEEKLY: 'weekly', MONTHLY: 'monthly', YEARLY: 'yearly' };

/** A billing period in words: "monthly", "every 2 weeks". */
export const period = (cycle: BillingCycle, frequency: number) =>
  frequency === 1 ? ONCE[cycle] : `every ${frequency} ${UNITS[cycle]}s`;

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

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
      if (!found) throw new ApiError('The statement could not be analysed.', 'ERROR');
      setUpload({ file, format });
      if (found.needsMapping) {
        setMapping(found);
        return 'The columns were not recognised: choose them below';
      }
      setMapping(null);
      const fresh = new Set(found.proposals.map((proposal) => proposal.id));
      setProposals((open) => [...found.proposals, ...open.filter((proposal) => !fresh.has(proposal.id))]);
      return `${plural(found.transactionCount, 'transaction')} read, ${plural(found.proposals.length, 'recurring payment')} found`;
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
      return action.setOutcome({ kind: 'failed', message: 'Choose the amount column, or the debit and credit ones.' });
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
      setAccepted(
        `${plural(ids.length - tracked, 'record')} added${tracked > 0 ? `, ${plural(tracked, 'record')} updated` : ''}.`,
      );
    });

  function dismiss(proposal: Proposal) {
    if (!window.confirm(`Dismiss ${proposal.payee}? It will not be proposed again.`)) return;
    void action.run(async () => {
      setAccepted(null);
      await gql<DismissProposalsMutation, DismissProposalsMutationVariables>(DISMISS, {
        input: { ids: [proposal.id] },
      });
      decided([proposal.id]);
      return `${proposal.payee}: dismissed`;
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
      : Object.fromEntries((mapping.sample[0] ?? []).map((_, index) => [index + 1, `Column ${index + 1}`]))
    : {};
  const choose = (none: string) => ({ '': none, ...columns });
  const sorted = [...proposals].sort((a, b) => b.confidence - a.confidence);

  return (
    <Section title="Find subscriptions">
      <p>Upload a bank statement export to find recurring payments you may have forgotten. It is not kept.</p>
      <form class="card" onSubmit={submitFile} aria-label="Upload a statement" aria-busy={analysing}>
        <h2>Upload a statement</h2>
        <div class="field">
          <label for="statement-file">Statement file (CSV, OFX, QFX, CAMT.053 or MT940; at most 10 MB)</label>
          <input
            id="statement-file"
            name="statement"
            type="file"
            accept=".csv,.ofx,.qfx,.xml,.sta,.mt940,.txt"
            required
          />
        </div>
        <Select label="Format" name="format" options={FORMATS} />
        <button type="submit" disabled={action.busy}>
          Analyse
        </button>
        {analysing && <p role="status">Analysing the statement…</p>}
      </form>
      <Notice outcome={action.outcome} />
      {accepted && (
        <p class="notice done" role="status">
          {accepted} <a href="#/subscriptions">See your subscriptions</a>
        </p>
      )}
      {mapping && (
        <form class="card" key={mapping.columns.join()} onSubmit={submitMapping} aria-label="Choose the columns">
          <h2>Choose the columns</h2>
          <div class="table-wrap">
            <table aria-label="The statement's first rows">
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
          </div>
          <div class="grid">
            <Select label="Date" name="date" options={choose('Choose a column')} initial="" required />
            <Select label="Payee" name="payee" options={choose('Choose a column')} initial="" required />
            <Select label="Description (optional)" name="description" options={choose('None')} initial="" />
            <Select label="Amount (signed)" name="amount" options={choose('None')} initial="" />
            <Select label="Debit" name="debit" options={choose('None')} initial="" />
            <Select label="Credit" name="credit" options={choose('None')} initial="" />
            <Select label="Currency (optional)" name="currency" options={choose('None')} initial="" />
            <Select label="Date order" name="dateOrder" options={DATE_ORDERS} />
            <Select label="Decimal separator" name="decimalSeparator" options={DECIMALS} />
            <Field
              label="Default currency"
              name="defaultCurrency"
              maxLength={3}
              defaultValue={baseCurrency}
              hint="When no column holds the currency"
            />
          </div>
          <button type="submit" disabled={action.busy}>
            Analyse with these columns
          </button>
        </form>
      )}
      <h2>Proposals</h2>
      {sorted.length === 0 ? (
        <p>No open proposals. Upload a statement to find some.</p>
      ) : (
        <>
          <button
            type="button"
            disabled={selected.size === 0 || action.busy}
            onClick={() => void accept([...selected])}
          >
            Accept selected ({selected.size})
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
        {!p.ongoing && <span class="badge"> stopped</span>}
        {p.trackedSubscriptionId !== null && <span class="badge"> already tracked</span>}
      </h3>
      {p.productName && <p>Catalogue product: {p.productName}</p>}
      <p>
        <strong>{moneyOf(p.price)}</strong> {period(p.billingCycle, p.billingFrequency)} · next payment{' '}
        {calendarDate(p.nextPaymentDate)} · {Math.round(p.confidence * 100)}% confidence
      </p>
      {p.trackedSubscriptionId !== null && <p>You already track it: accepting updates its price.</p>}
      <ul>
        {p.reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
      <details>
        <summary>
          Payment history: {plural(p.payments.length, 'payment')}
          {p.priceSteps.length > 1 ? `, ${plural(p.priceSteps.length - 1, 'price change')}` : ''}
        </summary>
        <table aria-label={`Payments to ${p.payee}`}>
          <Columns names={['Date', 'Amount']} />
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
          <ul aria-label={`Prices of ${p.payee}`}>
            {p.priceSteps.map((step) => (
              <li key={step.effectiveFrom}>
                {moneyOf(step.price)} from {calendarDate(step.effectiveFrom)}
              </li>
            ))}
          </ul>
        )}
      </details>
      <label>
        <input type="checkbox" checked={props.selected} onChange={props.onToggle} /> Select {p.payee}
      </label>
      <button type="button" disabled={props.busy} onClick={props.onAccept} aria-label={`Accept ${p.payee}`}>
        Accept
      </button>
      <button
        type="button"
        class="danger"
        disabled={props.busy}
        onClick={props.onDismiss}
        aria-label={`Dismiss ${p.payee}`}
      >
        Dismiss
      </button>
    </article>
  );
}
