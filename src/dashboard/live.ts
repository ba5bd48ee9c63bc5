/**
 * Live updates for open screens: one graphql-ws connection (graphql-transport-ws on /graphql) while signed in,
 * reconnecting, whose events become `subledger:live` window events; screens reload on the kinds they show.
 * Its operations are checked against the schema by codegen (codegen.ts lists this file); they are not registered
 * as persisted operations (those are the screens' queries and mutations over HTTP).
 */
import { createClient } from 'graphql-ws/client';
import { useEffect, useRef } from 'preact/hooks';

/** What changed: records (and so upcoming payments and the ledger), deliveries, reminders, budgets. */
export type LiveKind = 'records' | 'deliveries' | 'reminders' | 'budgets';

const EVENT = 'subledger:live';
const ALL: LiveKind[] = ['records', 'deliveries', 'reminders', 'budgets'];
const RECORD_CHANGED = /* GraphQL */ `
  subscription LiveRecordChanged {
    recordChanged {
      kind
      recordId
    }
  }
`;
const DELIVERY_CHANGED = /* GraphQL */ `
  subscription LiveDeliveryChanged {
    deliveryChanged {
      deliveryId
      status
    }
  }
`;
const REMINDER_FIRED = /* GraphQL */ `
  subscription LiveReminderFired {
    reminderFired {
      recordId
    }
  }
`;
const BUDGET_EXCEEDED = /* GraphQL */ `
  subscription LiveBudgetExceeded {
    budgetExceeded {
      budgetId
    }
  }
`;
// The events' contents are not read (a screen reloads what it shows), only that one came.
const SUBSCRIPTIONS: Array<[LiveKind, string]> = [
  ['records', RECORD_CHANGED],
  ['deliveries', DELIVERY_CHANGED],
  ['reminders', REMINDER_FIRED],
  ['budgets', BUDGET_EXCEEDED],
];
/** graphql-ws's close for a refused token: the session is over, no use retrying. */
const FORBIDDEN = 4403;

function announce(kinds: LiveKind[]): void {
  window.dispatchEvent(new CustomEvent<LiveKind[]>(EVENT, { detail: kinds }));
}

/** Opens the connection with the session's token; answers the function that closes it. */
export function startLiveUpdates(token: string): () => void {
  let connections = 0;
  const client = createClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: Infinity,
    shouldRetry: (event) => (event as { code?: number }).code !== FORBIDDEN,
    on: {
      // Changes made while disconnected were not heard: after a reconnect every screen reloads.
      connected: () => {
        if (++connections > 1) announce(ALL);
      },
    },
  });
  const stops = SUBSCRIPTIONS.map(([kind, query]) =>
    client.subscribe({ query }, { next: () => announce([kind]), error: () => undefined, complete: () => undefined }),
  );
  return () => {
    for (const stop of stops) stop();
    void client.dispose();
  };
}

/** How long a screen waits after an event for more before it reloads (an import changes many records at once). */
const SETTLE_MS = 250;

/** Reloads a screen's data when something of these kinds changes (the latest `reload` of the screen). */
export function useLiveReload(kinds: LiveKind[], reload: () => unknown): void {
  const latest = useRef(reload);
  latest.current = reload;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const listener = (event: Event) => {
      if (!(event as CustomEvent<LiveKind[]>).detail.some((kind) => kinds.includes(kind))) return;
      clearTimeout(timer);
      // A failed reload leaves the screen as it was; the next change tries again.
      timer = setTimeout(
        () =>
          void Promise.resolve()
            .then(latest.current)
            .catch(() => undefined),
        SETTLE_MS,
      );
    };
    window.addEventListener(EVENT, listener);
    return () => {
      clearTimeout(timer);
      window.removeEventListener(EVENT, listener);
    };
  }, [kinds.join()]);
}
