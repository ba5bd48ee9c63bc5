import { Router } from 'express';

import type { AlertInput } from '../../src/alerts/alert.input';
import { validateAlertInput } from '../../src/alerts/alert.input';
import { ALERT_SORT_FIELDS } from '../../src/alerts/alert.service';
import { AppError } from '../../src/platform/errors';
import { definedOnly } from '../../src/platform/objects';
import type { Services } from '../../src/runtime/services';
import { callerOf } from '../auth';
import { parseBody } from '../body';
import { FormReader } from '../form';
import { presentAlert, presentWrittenAlert } from '../presenters/alert.presenter';
import { pathId, readPagedQuery } from './params';

/** Operations 14-18. */
export function alertRoutes(services: Services): Router {
  const router = Router();
  const alerts = services.alerts;

  router.post('/alerts', parseBody, async (req, res) => {
    const alert = await alerts.create(callerOf(req), readAlertForm(new FormReader(req.body), true) as AlertInput);
    res.json(presentWrittenAlert(alert));
  });

  router.get('/alerts', async (req, res) => {
    const form = new FormReader(req.query);
    const query = readPagedQuery(form, ALERT_SORT_FIELDS, [{ field: 'created_at', direction: 'desc' }]);
    form.done();
    const list = await alerts.list(callerOf(req), query);
    if (list.length === 0) throw AppError.noResults('alerts');
    res.json(list.map(presentAlert));
  });

  router.get('/alerts/:id', async (req, res) => {
    res.json(presentAlert(await alerts.get(callerOf(req), pathId(req, 'Alert'))));
  });

  router.put('/alerts/:id', parseBody, async (req, res) => {
    const id = pathId(req, 'Alert');
    const input = readAlertForm(new FormReader(req.body), false);
    res.json(presentWrittenAlert(await alerts.update(callerOf(req), id, input)));
  });

  router.delete('/alerts/:id', async (req, res) => {
    await alerts.remove(callerOf(req), pathId(req, 'Alert'));
    res.json({ status: true, message: 'Alert deleted successfully' });
  });

  return router;
}

/** The seven fields of operation 14 (all required on create, each optional on update) and time_cycle. */
function readAlertForm(form: FormReader, required: boolean): Partial<AlertInput> {
  const input: Partial<AlertInput> = definedOnly({
    alertName: form.text('alert_name', { required }),
    timePeriod: form.integer('time_period', { required }),
    timeCycle: form.integer('time_cycle'),
    time: form.text('time', { required }),
    alertCondition: form.integer('alert_condition', { required }),
    alertType: form.integer('alert_type', { required }),
    timezone: form.text('timezone', { required }),
    alertSubsType: form.integer('alert_subs_type', { required }),
    alertContact: form.text('alert_contact'),
  });
  form.merge(validateAlertInput(input));
  form.done();
  return input;
}
