import type { User } from '../../src/auth/user.entity';
import { toSqlSeconds } from '../../src/platform/wire-formats';

/** The original's plan names; a self-hosted server has the one plan every account is on. */
const PLAN_NAMES: Record<number, string> = { 1: 'Free' };

/** The User resource as the spec lists it, plus the original's plan_name (and nothing else: no hashes). */
export function presentUser(user: User, baseUrl: string) {
  return {
    id: user.id,
    role_id: user.roleId,
    plan_id: user.planId,
    name: user.name,
    first_name: user.firstName,
    last_name: user.lastName,
    country: user.country,
    email: user.email,
    email_verified_at: toSqlSeconds(user.emailVerifiedAt ?? user.createdAt),
    description: user.description ?? null,
    image: user.image ?? `${baseUrl}/static/avatar.svg`,
    created_at: toSqlSeconds(user.createdAt),
    updated_at: toSqlSeconds(user.updatedAt ?? user.createdAt),
    // Accounts made by sign-up or the CLI are their own creators.
    created_by: user.createdBy ?? user.id,
    reset_at: toSqlSeconds(user.resetAt ?? null),
    status: user.status,
    plan_name: PLAN_NAMES[user.planId] ?? null,
  };
}
