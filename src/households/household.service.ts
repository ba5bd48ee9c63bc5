import { emailProblem, normaliseEmail } from '../auth/email';
import { personNameProblem } from '../auth/person-name';
import { randomSecret, sha256Hex } from '../auth/secrets';
import type { Caller } from '../platform/caller';
import type { Transactions } from '../platform/db/data-source';
import { AppError } from '../platform/errors';
import type { Logger } from '../platform/logger';
import { hasLength } from '../platform/objects';
import type { SharedRecordAccess } from '../platform/shared-records';
import type { SplitMode } from './household.entity';
import type { HouseholdRepository, MemberRow, MembershipRow, SharingRow } from './household.repository';
import { handedBack, type ShareInput, splitWeights } from './split';

/** Sends an invitation e-mail (SMTP_URL); absent: invitation codes are passed on by hand. */
export type InvitationMail = (to: string, subject: string, text: string) => Promise<unknown>;

export interface MemberInput {
  name?: string;
  email?: string | null;
  canEdit?: boolean;
}

/** A member just added or invited: the invitation code is answered this once (only its hash is kept). */
export type InvitedMember = MemberRow & { invitation_code: string | null; invitation_emailed: boolean };

/** Households: their members and invitations, and the records shared in them with a payer and a split. */
export class HouseholdService implements SharedRecordAccess {
  constructor(
    private readonly transactions: Transactions,
    private readonly repository: HouseholdRepository,
    private readonly mail: InvitationMail | null,
    private readonly logger: Logger,
  ) {}

  /** The households the caller owns or joined (their own first), with their members. */
  async households(caller: Caller): Promise<Array<{ household: MembershipRow; members: MemberRow[] }>> {
    const households = await this.repository.memberships(caller.userId);
    const members =
      households.length > 0 ? await this.repository.members(households.map((household) => household.id)) : [];
    return households.map((household) => ({
      household,
      members: members.filter((member) => member.household_id === household.id),
    }));
  }

  /** The caller's membership of a household: the one check before reading it. NOT_FOUND when not theirs. */
  async membership(caller: Caller, householdId: number): Promise<MembershipRow> {
    const membership = await this.repository.membership(caller.userId, householdId);
    if (!membership) throw AppError.notFound('Household');
    return membership;
  }

  /** The members of a household the caller belongs to (NOT_FOUND when not theirs). */
  async members(caller: Caller, householdId: number): Promise<MemberRow[]> {
    await this.membership(caller, householdId);
    return this.repository.members([householdId]);
  }

  async ownerFor(userId: number, subscriptionId: number, need: 'read' | 'edit'): Promise<number | null> {
    return this.repository.sharedRecordOwner(userId, subscriptionId, need === 'edit');
  }

  /** Makes the caller's household (one per user), with the caller as its first member. */
  async create(caller: Caller, name: string): Promise<void> {
    const checked = householdName(name);
    await this.transactions.transaction(async () => {
      if ((await this.repository.ownedId(caller.userId)) !== null)
        throw new AppError('CONFLICT', 'You already have a household');
      await this.repository.create(caller.userId, checked);
    });
  }

  async rename(caller: Caller, name: string): Promise<void> {
    if (!(await this.repository.rename(caller.userId, householdName(name)))) throw AppError.notFound('Household');
  }

  /** Removes the caller's household: its members and shares go, the records stay the caller's, unshared. */
  async remove(caller: Caller): Promise<void> {
    if (!(await this.repository.remove(caller.userId))) throw AppError.notFound('Household');
  }

  /** Adds a member to the caller's household: by name only, or invited by e-mail (an invitation code to join with). */
  async addMember(caller: Caller, input: MemberInput): Promise<InvitedMember> {
    const name = memberName(input.name ?? '');
    const email = input.email === undefined || input.email === null ? null : checkedEmail(input.email);
    const code = email === null ? null : randomSecret(18);
    const member = await this.transactions.transaction(async () => {
      if ((await this.repository.ownedId(caller.userId)) === null) throw AppError.notFound('Household');
      return this.repository
        .addMember(caller.userId, {
          name,
          email,
          canEdit: input.canEdit ?? false,
          invitationHash: code && sha256Hex(code),
        })
        .catch(emailTaken);
    });
    return {
      ...member,
      invitation_code: code,
      invitation_emailed: code !== null && (await this.sendInvitation(caller, email!, code)),
    };
  }

  /** Invites a member not joined yet by e-mail, with a new invitation code (the previous one no longer works). */
  async invite(caller: Caller, memberId: number, email: string): Promise<InvitedMember> {
    const checked = checkedEmail(email);
    const code = randomSecret(18);
    const member = await this.transactions.transaction(async () => {
      const current = await this.repository.lockMember(caller.userId, memberId);
      if (!current) throw AppError.notFound('Household member');
      if (current.user_id !== null) throw AppError.field('member_id', 'This member has joined already.');
      return (await this.repository
        .updateMember(caller.userId, memberId, {
          email: checked,
          invitationHash: sha256Hex(code),
        })
        .catch(emailTaken))!;
    });
    return { ...member, invitation_code: code, invitation_emailed: await this.sendInvitation(caller, checked, code) };
  }

  /** Renames a member of the caller's household or changes their edit rights. */
  async updateMember(caller: Caller, memberId: number, input: MemberInput): Promise<MemberRow> {
    const change = { name: input.name === undefined ? undefined : memberName(input.name), canEdit: input.canEdit };
    const member = await this.repository.updateMember(caller.userId, memberId, change);
    if (!member) throw AppError.notFound('Household member');
    return member;
  }

  /**
   * Removes a member of the caller's household (not the owner), in one transaction: the records they pay are
   * the owner's to pay, and their shares the owner's (see handedBack), so every split still adds up; then the
   * member goes, and with them their access to the records.
   */
  async removeMember(caller: Caller, memberId: number): Promise<void> {
    await this.transactions.transaction(async () => {
      const member = await this.repository.lockMember(caller.userId, memberId);
      if (!member) throw AppError.notFound('Household member');
      if (member.user_id === caller.userId)
        throw AppError.field('member_id', 'The owner stays in the household: remove the household instead.');
      // Read after the member's lock: a split naming them is either here or waits for the removal (and fails).
      const recordIds = await this.repository.lockRecordsNaming(memberId);
      if (recordIds.length > 0) {
        const owner = (await this.repository.members([member.household_id])).find(
          (row) => row.user_id === caller.userId,
        )!;
        for (const sharing of await this.repository.sharingOf(recordIds)) {
          const stored = {
            payerId: sharing.payer_id,
            mode: sharing.split_mode,
            price: sharing.price,
            splits: sharing.splits.map((split) => ({ memberId: split.member_id, weight: split.weight })),
          };
          const handed = handedBack(stored, memberId, owner.id);
          await this.repository.putSharing({
            subscriptionId: sharing.subscription_id,
            householdId: sharing.household_id,
            ...handed,
          });
        }
      }
      await this.repository.removeMember(memberId);
    });
  }

  /** Joins the household whose invitation to the caller's e-mail address this code is. */
  async join(caller: Caller, code: string): Promise<number> {
    const householdId = await this.repository.claimInvitation(caller.userId, sha256Hex(code.trim()));
    if (householdId === null) throw AppError.notFound('Invitation');
    return householdId;
  }

  /** Leaves a household the caller joined: they stay in it by name, for the shares they hold. */
  async leave(caller: Caller, householdId: number): Promise<void> {
    if (!(await this.repository.leave(caller.userId, householdId))) throw AppError.notFound('Household');
  }

  /**
   * Shares a record in its owner's household with a payer and a split (or changes them): the owner, or a
   * member with edit rights of a record shared already. Answers the record's owner.
   */
  async share(
    caller: Caller,
    subscriptionId: number,
    sharing: { payerId: number; mode: SplitMode; shares: ShareInput[] },
  ): Promise<number> {
    const ownerId = await this.actingOwner(caller, subscriptionId);
    await this.transactions.transaction(async () => {
      const record = await this.repository.shareableRecord(ownerId, subscriptionId);
      if (!record) throw AppError.notFound('Subscription');
      const householdId = await this.repository.ownedId(ownerId);
      if (householdId === null) throw AppError.field('household_id', 'Make a household first.');
      const members = new Set((await this.repository.members([householdId])).map((member) => member.id));
      if (!members.has(sharing.payerId))
        throw AppError.field('payer_member_id', 'The payer must be a member of the household.');
      if (sharing.shares.some((share) => !members.has(share.memberId)))
        throw AppError.field('shares', 'Every share must be a member of the household.');
      const splits = splitWeights(sharing.mode, sharing.shares, record.price);
      await this.repository.putSharing({
        subscriptionId,
        householdId,
        payerId: sharing.payerId,
        mode: sharing.mode,
        splits,
      });
    });
    return ownerId;
  }

  /** Stops sharing a record (the owner, or a member with edit rights). Answers the record's owner. */
  async unshare(caller: Caller, subscriptionId: number): Promise<number> {
    const ownerId = await this.actingOwner(caller, subscriptionId);
    const removed = await this.transactions.transaction(async () => {
      if (!(await this.repository.shareableRecord(ownerId, subscriptionId))) throw AppError.notFound('Subscription');
      return this.repository.removeSharing(subscriptionId);
    });
    if (!removed) throw AppError.field('id', 'This record is not shared.');
    return ownerId;
  }

  /** The payer and split of each of these records that is shared (a loader's batch). */
  sharingOf(subscriptionIds: readonly number[]): Promise<SharingRow[]> {
    return this.repository.sharingOf(subscriptionIds);
  }

  /** The records shared in a household the caller belongs to: their owner and ids. */
  async sharedRecords(caller: Caller, householdId: number): Promise<{ ownerId: number; ids: number[] }> {
    const membership = await this.membership(caller, householdId);
    return { ownerId: membership.owner_id, ids: await this.repository.sharedRecordIds(householdId) };
  }

  /**
   * An imported household: the caller's (made when they have none), with the file's members added by name
   * unless a member of that name is there already (name-only: invitations are sent again from here). Answers
   * each of the file's member ids as the member's id here; the file's owner is the caller.
   */
  async restore(
    caller: Caller,
    household: { name: string; members: Array<{ id: number; name: string; isOwner: boolean; canEdit: boolean }> },
  ) {
    return this.transactions.transaction(async () => {
      const householdId =
        (await this.repository.ownedId(caller.userId)) ??
        (await this.repository.create(caller.userId, householdName(household.name)));
      const present = await this.repository.members([householdId]);
      const ids = new Map<number, number>();
      for (const member of household.members) {
        const same = member.isOwner
          ? present.find((row) => row.user_id === caller.userId)
          : present.find((row) => row.name.toLowerCase() === member.name.trim().toLowerCase());
        const row =
          same ??
          (await this.repository.addMember(caller.userId, {
            name: memberName(member.name),
            email: null,
            canEdit: member.canEdit,
            invitationHash: null,
          }));
        ids.set(member.id, row!.id);
      }
      return ids;
    });
  }

  /** Whose record the caller acts on: their own, or one shared where they have edit rights. */
  private async actingOwner(caller: Caller, subscriptionId: number): Promise<number> {
    return (await this.repository.sharedRecordOwner(caller.userId, subscriptionId, true)) ?? caller.userId;
  }

  /** Sends the invitation's code when e-mail is configured; whether it went. A failure is logged, never fatal. */
  private async sendInvitation(caller: Caller, to: string, code: string): Promise<boolean> {
    if (!this.mail) return false;
    const [household] = await this.repository.memberships(caller.userId);
    const text =
      `${household.owner_name} invited you to the household "${household.name}" on Subledger.\n\n` +
      `Sign in (or sign up) with this e-mail address and join with the invitation code:\n\n${code}`;
    try {
      await this.mail(to, `${household.owner_name} invited you to "${household.name}"`, text);
      return true;
    } catch (error) {
      this.logger.warn({ err: error }, 'household invitation e-mail failed');
      return false;
    }
  }
}

function householdName(name: string): string {
  if (!hasLength(name, 1, 100)) throw AppError.field('name', 'The name must be from 1 to 100 characters.');
  return name.trim();
}

function memberName(name: string): string {
  const problem = personNameProblem(name);
  if (problem) throw AppError.field('name', problem);
  return name.trim();
}

/** An e-mail address another member of the household has (its unique index refused it): a conflict on `email`. */
function emailTaken(error: unknown): never {
  const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown };
  if (code === '23505' && constraint === 'household_members_household_email_unique') {
    const message = 'Another member of your household has this e-mail address.';
    throw new AppError('CONFLICT', message, { email: [message] });
  }
  throw error;
}

function checkedEmail(email: string): string {
  const normalised = normaliseEmail(email);
  const problem = emailProblem(normalised);
  if (problem) throw AppError.field('email', problem);
  return normalised;
}
