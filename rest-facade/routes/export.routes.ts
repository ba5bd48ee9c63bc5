import { stringify } from 'csv-stringify/sync';
import { Router } from 'express';

import { escapeQuotedFormula } from '../../src/platform/csv-formulas';
import type { Services } from '../../src/runtime/services';
import { callerOf } from '../auth';
import { presentListItem } from '../presenters/subscription.presenter';

/**
 * Downloads of the caller's data. The CSV starts with a byte-order mark, so spreadsheet programs read it
 * as UTF-8; a record's tags are one cell, separated by semicolons. A text that a spreadsheet would run as a
 * formula (it begins with =, +, -, @, a tab or a carriage return) is written after an apostrophe, which the
 * import takes off again (see platform/csv-formulas).
 */
export function exportRoutes(services: Services): Router {
  const router = Router();
  router.get('/subscriptions.csv', async (req, res) => {
    const rows = (await services.subscriptions.all(callerOf(req))).map(({ record, tags }) => ({
      ...presentListItem(record),
      tags: tags.join(';'),
    }));
    res
      .type('text/csv; charset=utf-8')
      .attachment('subscriptions.csv')
      .send(
        rows.length === 0
          ? '\uFEFF'
          : stringify(rows, { header: true, bom: true, escape_formulas: true, cast: { string: escapeQuotedFormula } }),
      );
  });
  router.get('/account.json', async (req, res) => {
    res.attachment('account.json').json(await services.exports.account(callerOf(req)));
  });
  return router;
}
