import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

import { ApiError, gql, type Variables } from './api';
import { t } from './i18n';

/** A labelled input with the server's messages for its field under it. */
export function Field(
  props: {
    label: string;
    name: string;
    errors?: Record<string, string[]>;
    hint?: string;
  } & JSX.InputHTMLAttributes<HTMLInputElement>,
) {
  const { label, name, errors, hint, ...input } = props;
  const messages = errors?.[name] ?? [];
  // A screen with several forms of the same field names gives each its own id.
  const id = input.id ?? `field-${name}`;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        name={name}
        aria-invalid={messages.length > 0}
        aria-describedby={messages.length > 0 ? `${id}-errors` : undefined}
        {...input}
      />
      {hint && <small>{hint}</small>}
      <FieldErrors messages={messages} id={`${id}-errors`} />
    </div>
  );
}

/** The server's messages about one field, as a list under it; nothing when there are none. */
export function FieldErrors({ messages, id }: { messages: string[] | undefined; id?: string }) {
  if (!messages?.length) return null;
  return (
    <ul class="field-errors" id={id}>
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

/**
 * A labelled select. In forms, `initial` picks the first choice (the form owns it afterwards); list controls
 * pass `value` and `onChange` instead.
 */
export function Select(
  props: {
    label: string;
    name: string;
    options: Record<string | number, string>;
    initial?: string;
    errors?: Record<string, string[]>;
  } & JSX.SelectHTMLAttributes<HTMLSelectElement>,
) {
  const { label, name, options, initial, errors, id = `field-${name}`, ...select } = props;
  const messages = errors?.[name] ?? [];
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} name={name} aria-invalid={messages.length > 0} {...select}>
        {Object.entries(options).map(([value, text]) => (
          <option key={value} value={value} selected={initial === undefined ? undefined : value === initial}>
            {text}
          </option>
        ))}
      </select>
      <FieldErrors messages={messages} />
    </div>
  );
}

export interface Outcome {
  kind: 'done' | 'failed';
  message: string;
  /** A follow-up the user may take (undo a delete). */
  next?: { label: string; run: () => void };
}

/** The result of the last action, announced to screen readers. */
export function Notice({ outcome }: { outcome: Outcome | null }) {
  if (!outcome) return null;
  return (
    <p class={`notice ${outcome.kind}`} role={outcome.kind === 'failed' ? 'alert' : 'status'}>
      {outcome.message}
      {outcome.next && (
        <button type="button" class="link" onClick={outcome.next.run}>
          {outcome.next.label}
        </button>
      )}
    </p>
  );
}

/**
 * Runs actions and keeps the outcome and field errors of the last one to say something. A run that says nothing
 * (a screen's load) clears the notice, and none clears or replaces the notice of a run started after it: a
 * screen's first load finishing after a change the user made meanwhile cleared the change's notice.
 */
export function useAction() {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const runs = useRef({ started: 0, shown: 0, running: 0 });
  function settle(run: number, next: Outcome | null, fields: Record<string, string[]>) {
    if (run < runs.current.shown) return;
    if (next) runs.current.shown = run;
    setErrors(fields);
    setOutcome(next);
  }
  async function run(action: () => Promise<string | void>): Promise<boolean> {
    const mine = ++runs.current.started;
    runs.current.running++;
    setBusy(true);
    try {
      const message = await action();
      settle(mine, message ? { kind: 'done', message } : null, {});
      return true;
    } catch (error) {
      const failure = error instanceof ApiError ? error : new ApiError(String(error), 'ERROR');
      settle(mine, { kind: 'failed', message: failure.message }, failure.fields);
      return false;
    } finally {
      if (--runs.current.running === 0) setBusy(false);
    }
  }
  return { outcome, errors, busy, run, setOutcome };
}

/**
 * An action that makes one change through GraphQL, then reloads what shows it, and says `done`. Typed as gql
 * is: `apply<DeleteAlertMutation, DeleteAlertMutationVariables>(DELETE, { input: { id } }, 'Alert deleted')`.
 */
export function changeThen(reload: () => Promise<unknown>) {
  return <T = never, V extends Variables = never>(query: string, variables: NoInfer<V>, done: string) =>
    async () => {
      await gql<T, Variables>(query, variables);
      await reload();
      return done;
    };
}

export function Section({
  title,
  children,
  actions,
}: {
  title: string;
  children: ComponentChildren;
  actions?: ComponentChildren;
}) {
  return (
    <section aria-labelledby={`title-${title}`}>
      <header class="section-header">
        <h1 id={`title-${title}`}>{title}</h1>
        {actions}
      </header>
      {children}
    </section>
  );
}

/** A table's header row. */
export function Columns({ names }: { names: string[] }) {
  return (
    <thead>
      <tr>
        {names.map((name) => (
          <th key={name} scope="col">
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/**
 * The frame of a table that scrolls sideways on a narrow screen: a region named as its table is, which the
 * keyboard can reach and scroll.
 */
export function TableWrap({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** Cursor paging through a connection: the `after` of the page shown, and the way back and on. */
export function useCursorPages() {
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  return {
    after: cursors[cursors.length - 1],
    restart: () => setCursors([null]),
    atStart: cursors.length === 1,
    back: () => setCursors(cursors.slice(0, -1)),
    on: (endCursor: string | null | undefined) => setCursors([...cursors, endCursor ?? null]),
  };
}

/** Previous and Next under a paged table; nothing when everything fits on one page. */
export function Pager({
  pages,
  pageInfo,
}: {
  pages: ReturnType<typeof useCursorPages>;
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
}) {
  if (pages.atStart && !pageInfo.hasNextPage) return null;
  return (
    <nav class="pager" aria-label={t('common:pages')}>
      <button type="button" disabled={pages.atStart} onClick={pages.back}>
        {t('common:previous')}
      </button>
      <button type="button" disabled={!pageInfo.hasNextPage} onClick={() => pages.on(pageInfo.endCursor)}>
        {t('common:next')}
      </button>
    </nav>
  );
}

/**
 * A paged list on a screen: the page shown, read by `read(after)` through `action` when the cursor moves or
 * any of `deps` changes; `load` reads it again after a change.
 */
export function usePagedList<P>(
  read: (after: string | null) => Promise<P>,
  action: ReturnType<typeof useAction>,
  deps: unknown[] = [],
) {
  const pages = useCursorPages();
  const [page, setPage] = useState<P | null>(null);
  const load = async () => setPage(await read(pages.after));
  useEffect(() => {
    void action.run(load);
  }, [pages.after, ...deps]);
  return { pages, page, load };
}
