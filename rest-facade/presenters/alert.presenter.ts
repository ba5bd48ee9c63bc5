import type { Alert } from '../../src/alerts/alert.entity';
import { toIsoMicros } from '../../src/platform/wire-formats';

/** An Alert definition as reads give it: integers, `time` as HH:MM:SS, ISO timestamps with microseconds. */
export function presentAlert(alert: Alert) {
  return {
    id: alert.id,
    // The system default alert belongs to no user.
    user_id: alert.user ?? 0,
    is_default: alert.isDefault,
    alert_name: alert.alertName,
    time_period: alert.timePeriod,
    time_cycle: alert.timeCycle ?? null,
    time: alert.time,
    alert_condition: alert.alertCondition,
    alert_contact: alert.alertContact ?? null,
    alert_type: alert.alertType,
    timezone: alert.timezone,
    alert_subs_type: alert.alertSubsType,
    created_at: toIsoMicros(alert.createdAt),
    updated_at: toIsoMicros(alert.updatedAt ?? alert.createdAt),
  };
}

/**
 * The documented quirk of create and update answers: the four numeric fields as strings, `time` as sent
 * (HH:MM), and no time_cycle.
 */
export function presentWrittenAlert(alert: Alert) {
  const { time_cycle: _omitted, ...read } = presentAlert(alert);
  return {
    ...read,
    time_period: String(alert.timePeriod),
    time: alert.time.slice(0, 5),
    alert_condition: String(alert.alertCondition),
    alert_type: String(alert.alertType),
    alert_subs_type: String(alert.alertSubsType),
  };
}
