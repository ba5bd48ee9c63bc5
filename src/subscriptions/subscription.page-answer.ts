import { type PageArgs, pageWindow } from '../platform/graphql/connection';
import type { WrittenRootFields } from '../platform/graphql/written-answers';
import { compileRecordPage } from './record-page.sql';
import type { ListQuery } from './subscription.list';
import { listQueryOf, RECORD_PAGES } from './subscription.resolver';
import type { SubscriptionService } from './subscription.service';
import type { SubscriptionFilter, SubscriptionOrder } from './subscription.types';

type RecordPageArgs = PageArgs & {
  filter?: SubscriptionFilter | null;
  search?: string | null;
  orderBy?: SubscriptionOrder | null;
};

/**
 * The list query of a page's arguments, checked as the resolver checks them; null for a page that needs a count
 * first or holds no record, and for an argument the resolver refuses (a cursor not given out, a size out of
 * range), which it then refuses in words.
 */
function pageQueryOf(page: RecordPageArgs): ListQuery | null {
  try {
    const window = pageWindow(page, RECORD_PAGES);
    if (!window || window.limit === 0) return null;
    return { ...listQueryOf(page), start: window.offset, length: window.limit };
  } catch {
    return null;
  }
}

/**
 * `subscriptions` as the database writes it (see WrittenAnswers): the selections compileRecordPage compiles,
 * for the pages that need no count first (`last` without `before` does) and hold a record at least.
 */
export function writtenRecordPage(service: SubscriptionService): WrittenRootFields[string] {
  return (field, reader) => {
    const selection = compileRecordPage(field, reader);
    if (!selection) return null;
    return async (caller, args) => {
      const query = pageQueryOf(args as RecordPageArgs);
      if (!query) return 'not here';
      const json = await service.pageAnswer(caller, selection, query);
      return json === null ? 'token not live' : { json };
    };
  };
}
