import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';

import { UserView } from '../auth/auth.types';
import { PageArgs, readPage } from '../platform/graphql/connection';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { idOf, toGlobalId } from '../platform/graphql/global-ids';
import type { NodeLookup } from '../platform/graphql/node';
import { MutationPayload } from '../platform/graphql/payloads';
import type { AccountAdminService } from './account.service';
import {
  AccountConnection,
  AccountView,
  DeleteAccountInput,
  DisableAccountInput,
  EnableAccountInput,
  toAccountView,
} from './account.types';

/** The accounts' page sizes: 50 unless asked, at most 200. */
const ACCOUNT_PAGES = { defaultSize: 50, maxSize: 200 };

const DisableAccountPayload = MutationPayload(
  'DisableAccountPayload',
  'account',
  () => AccountView,
  'The account, disabled.',
);
const EnableAccountPayload = MutationPayload(
  'EnableAccountPayload',
  'account',
  () => AccountView,
  'The account, enabled.',
);
const DeleteAccountPayload = MutationPayload(
  'DeleteAccountPayload',
  'deletedAccountId',
  () => ID,
  'The deleted account.',
);

/** `node(id:)` for an account: admins only. */
export function accountNodeLookup(accounts: AccountAdminService): NodeLookup {
  return async (caller, id) => toAccountView(await accounts.account(caller, id));
}

@Resolver()
export class AccountAdminResolver {
  constructor(private readonly service: AccountAdminService) {}

  @Query(() => AccountConnection, {
    description: 'Every account of the instance, oldest first (admins only: FORBIDDEN for anyone else).',
  })
  async accounts(@Ctx() context: GraphQLContext, @Args(() => PageArgs) page: PageArgs): Promise<object> {
    const caller = requireCaller(context);
    return readPage(page, ACCOUNT_PAGES, (offset, limit) => this.service.page(caller, offset, limit), toAccountView);
  }

  @Mutation(() => DisableAccountPayload, {
    description:
      'Disables an account (admins only): it cannot sign in, and its tokens are revoked. The last admin cannot be disabled.',
  })
  async disableAccount(
    @Arg('input', () => DisableAccountInput, { description: 'The account.' }) input: DisableAccountInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const account = await this.service.disable(requireCaller(context), idOf(input.id, 'Account'));
    return { account: toAccountView(account) };
  }

  @Mutation(() => EnableAccountPayload, { description: 'Lets a disabled account sign in again (admins only).' })
  async enableAccount(
    @Arg('input', () => EnableAccountInput, { description: 'The account.' }) input: EnableAccountInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const account = await this.service.enable(requireCaller(context), idOf(input.id, 'Account'));
    return { account: toAccountView(account) };
  }

  @Mutation(() => DeleteAccountPayload, {
    description:
      'Deletes an account and all its data in one transaction (admins only), once its e-mail address is typed again. The last admin cannot be deleted.',
  })
  async deleteAccount(
    @Arg('input', () => DeleteAccountInput, { description: 'The account and the confirmation.' })
    input: DeleteAccountInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const id = idOf(input.id, 'Account');
    await this.service.delete(requireCaller(context), id, input.confirmEmail);
    return { deletedAccountId: toGlobalId('Account', id) };
  }
}

/** `User.admin`: the signed-in user's own object says whether the admin's screens are theirs. */
@Resolver(() => UserView)
export class UserAdminResolver {
  constructor(private readonly service: AccountAdminService) {}

  @FieldResolver(() => Boolean, { description: 'Whether it is an active admin of this instance.' })
  async admin(@Root() user: UserView): Promise<boolean> {
    return this.service.isAdmin(user.id);
  }
}
