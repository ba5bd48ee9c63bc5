import { type PageArgs, pageWindow } from '../platform/graphql/connection';
import type { WrittenRootFields } from '../platform/graphql/written-answers';
import { compileRecordPage } from './record-page.sql';
import { listQueryOf, RECORD_PAGES } from './subscription.resolver';
import type { SubscriptionService } from './subscription.service';
import type { SubscriptionFilter, SubscriptionOrder } from './subscription.types';

type RecordPageArgs = PageArgs & {
  filter?: SubscriptionFilter | null;
  search?: string | null;
  orderBy?: SubscriptionOrder | null;
};

/**
 * `subscriptions` as the database writes it (see WrittenAnswers): the selections compileRecordPage compiles,
 * for the pages that need no count first (`last` without `before` does) and hold a record at least.
 * Arguments are checked as the resolver checks them; a refused one throws, and the resolver answers it.
 */
export function writtenRecordPage(service: SubscriptionService): WrittenRootFields[string] {
  return (field, reader) => {
    const selection = compileRecordPage(field, reader);
    if (!selection) return null;
    return async (caller, args) => {
      const page = args as RecordPageArgs;
      const window = pageWindow(page, RECORD_PAGES);
      if (!window || window.limit === 0) return 'not here';
      const query = { ...listQueryOf(page), start: window.offset, length: window.limit };
      const json = await service.pageAnswer(caller, selection, query);
      return json === null ? 'token not live' : { json };
    };
  };
}
