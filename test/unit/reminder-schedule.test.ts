import {
  instantOf,
  localFireDate,
  type RemindedRecord,
  type ReminderDefinition,
  reminderTargets,
} from '../../src/reminders/reminder-schedule';

const record = (fields: Partial<RemindedRecord> = {}): RemindedRecord => ({
  type: 1,
  status: 1,
  recurring: 1,
  timezone: 'UTC',
  schedule: { anchor: '2026-01-15', billingType: 2, billingCycle: 3, billingFrequency: 1 },
  refundDate: null,
  noticeDate: null,
  ...fields,
});
const definition = (fields: Partial<ReminderDefinition> = {}): ReminderDefinition => ({
  id: 7,
  timePeriod: 3,
  timeCycle: 1,
  time: '09:00:00',
  timezone: 'UTC',
  alertCondition: 2,
  alertSubsType: 1,
  ...fields,
});

describe('fire times', () => {
  it('count back days, weeks and months', () => {
    expect(localFireDate('2026-03-31', { timePeriod: 3, timeCycle: 1 })).toBe('2026-03-28');
    expect(localFireDate('2026-03-31', { timePeriod: 2, timeCycle: 2 })).toBe('2026-03-17');
    expect(localFireDate('2026-03-31', { timePeriod: 1, timeCycle: 3 })).toBe('2026-02-28');
    expect(localFireDate('2026-03-31', { timePeriod: 5, timeCycle: null })).toBe('2026-03-26');
  });

  it('keep 09:00 local on both sides of a daylight-saving switch', () => {
    // Europe/Berlin moves to summer time on 2026-03-29 and back on 2026-10-25.
    expect(instantOf('2026-03-28', '09:00:00', 'Europe/Berlin').toISOString()).toBe('2026-03-28T08:00:00.000Z');
    expect(instantOf('2026-03-29', '09:00:00', 'Europe/Berlin').toISOString()).toBe('2026-03-29T07:00:00.000Z');
    expect(instantOf('2026-10-24', '09:00:00', 'Europe/Berlin').toISOString()).toBe('2026-10-24T07:00:00.000Z');
    expect(instantOf('2026-10-25', '09:00:00', 'Europe/Berlin').toISOString()).toBe('2026-10-25T08:00:00.000Z');
    // America/New_York switches on 2026-03-08 and 2026-11-01.
    expect(instantOf('2026-03-07', '09:00:00', 'America/New_York').toISOString()).toBe('2026-03-07T14:00:00.000Z');
    expect(instantOf('2026-03-08', '09:00:00', 'America/New_York').toISOString()).toBe('2026-03-08T13:00:00.000Z');
    expect(instantOf('2026-11-01', '09:00:00', 'America/New_York').toISOString()).toBe('2026-11-01T14:00:00.000Z');
    // 02:30 does not exist in Berlin on the switch day: it fires when the clock shows 03:30.
    expect(instantOf('2026-03-29', '02:30:00', 'Europe/Berlin').toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });

  it('answers each date, time and zone apart, and a Date of its own each time', () => {
    const berlin = instantOf('2026-05-28', '09:00:00', 'Europe/Berlin');
    expect(instantOf('2026-05-28', '09:00:00', 'America/New_York').toISOString()).toBe('2026-05-28T13:00:00.000Z');
    expect(instantOf('2026-05-28', '09:30:00', 'Europe/Berlin').toISOString()).toBe('2026-05-28T07:30:00.000Z');
    berlin.setTime(0);
    expect(instantOf('2026-05-28', '09:00:00', 'Europe/Berlin').toISOString()).toBe('2026-05-28T07:00:00.000Z');
  });
});

describe('reminderTargets', () => {
  const now = new Date('2026-02-01T12:00:00Z');

  it('gives each definition its reminder of the next payment', () => {
    const targets = reminderTargets(
      record(),
      [
        definition(),
        definition({ id: 8, timePeriod: 1, timeCycle: 2, time: '18:30:00', timezone: 'America/New_York' }),
      ],
      now,
    );
    expect(targets).toEqual([
      { alertId: 7, kind: 'payment', date: '2026-02-15', fireAt: new Date('2026-02-12T09:00:00Z') },
      { alertId: 8, kind: 'payment', date: '2026-02-15', fireAt: new Date('2026-02-08T23:30:00Z') },
    ]);
  });

  it('reminds of the due date (2), the refund date (3), or both (1 All), as the original codes them', () => {
    const withRefund = record({ refundDate: '2026-02-20' });
    expect(reminderTargets(withRefund, [definition({ alertCondition: 2 })], now).map((t) => t.kind)).toEqual([
      'payment',
    ]);
    expect(reminderTargets(withRefund, [definition({ alertCondition: 3 })], now)).toEqual([
      { alertId: 7, kind: 'refund', date: '2026-02-20', fireAt: new Date('2026-02-17T09:00:00Z') },
    ]);
    expect(reminderTargets(withRefund, [definition({ alertCondition: 1 })], now).map((t) => t.kind)).toEqual([
      'payment',
      'refund',
    ]);
    expect(reminderTargets(record({ refundDate: '2026-01-20' }), [definition({ alertCondition: 3 })], now)).toEqual([]);
  });

  it('reminds of the last day to cancel a contract with 1 All, while it is ahead', () => {
    const contract = record({ refundDate: '2026-02-20', noticeDate: '2026-03-01' });
    expect(
      reminderTargets(contract, [definition({ alertCondition: 1 })], now).filter((t) => t.kind === 'contract_notice'),
    ).toEqual([{ alertId: 7, kind: 'contract_notice', date: '2026-03-01', fireAt: new Date('2026-02-26T09:00:00Z') }]);
    expect(reminderTargets(contract, [definition({ alertCondition: 1 })], now).map((t) => t.kind)).toEqual([
      'payment',
      'refund',
      'contract_notice',
    ]);
    expect(reminderTargets(contract, [definition({ alertCondition: 2 })], now).map((t) => t.kind)).toEqual(['payment']);
    expect(reminderTargets(contract, [definition({ alertCondition: 3 })], now).map((t) => t.kind)).toEqual(['refund']);
    expect(
      reminderTargets(record({ noticeDate: '2026-01-31' }), [definition({ alertCondition: 1 })], now).map(
        (t) => t.kind,
      ),
    ).toEqual(['payment']);
  });

  it('keeps a passed fire time while its date is ahead (a missed reminder still fires)', () => {
    const [target] = reminderTargets(record(), [definition({ timePeriod: 20 })], now);
    expect(target).toEqual({
      alertId: 7,
      kind: 'payment',
      date: '2026-02-15',
      fireAt: new Date('2026-01-26T09:00:00Z'),
    });
  });

  it('reminds no record that is not Active, and only the record type a definition names (1-3)', () => {
    for (const status of [0, 2, 3, 4]) expect(reminderTargets(record({ status }), [definition()], now)).toEqual([]);
    expect(reminderTargets(record({ type: 3 }), [definition({ alertSubsType: 1 })], now)).toEqual([]);
    expect(reminderTargets(record(), [definition({ alertSubsType: 2 })], now)).toEqual([]);
    expect(reminderTargets(record({ type: 2 }), [definition({ alertSubsType: 2 })], now)).toHaveLength(1);
    const lifetime = record({
      type: 3,
      recurring: 0,
      schedule: { anchor: '2026-03-01', billingType: 2, billingCycle: 3, billingFrequency: 1 },
    });
    expect(reminderTargets(lifetime, [definition({ alertSubsType: 3 })], now).map((t) => t.date)).toEqual([
      '2026-03-01',
    ]);
    // The system default alert (no owner, alertSubsType null) is for every type.
    for (const type of [1, 2, 3])
      expect(reminderTargets(record({ type }), [definition({ alertSubsType: null })], now)).toHaveLength(1);
  });

  it('moves on to the next payment once a payment date has passed', () => {
    const later = new Date('2026-02-16T00:30:00Z');
    expect(reminderTargets(record(), [definition()], later)[0].date).toBe('2026-03-15');
  });
});
