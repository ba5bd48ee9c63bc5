import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';

import { PageArgs, readPage } from '../platform/graphql/connection';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { idOf } from '../platform/graphql/global-ids';
import type { NodeLookup } from '../platform/graphql/node';
import { MutationPayload } from '../platform/graphql/payloads';
import { INVITATION_DAYS, type InvitationService } from './invitation.service';
import {
  CreateInvitationInput,
  InvitationConnection,
  InvitationView,
  RevokeInvitationInput,
  toInvitationView,
} from './invitation.types';

/** The invitations' page sizes: 50 unless asked, at most 200. */
const INVITATION_PAGES = { defaultSize: 50, maxSize: 200 };

const CreateInvitationPayload = MutationPayload(
  'CreateInvitationPayload',
  'invitation',
  () => InvitationView,
  'The new invitation, with its code and link shown this once (only a hash of the code is kept).',
  {
    code: { type: () => String, description: 'The invitation code to sign up with; null when refused.' },
    link: { type: () => String, description: 'The sign-up link holding the code; null when refused.' },
    emailed: {
      type: () => Boolean,
      description: 'Whether the link was sent by e-mail (an address given and SMTP_URL set); null when refused.',
    },
  },
);
const RevokeInvitationPayload = MutationPayload(
  'RevokeInvitationPayload',
  'invitation',
  () => InvitationView,
  'The invitation, revoked.',
);

/** `node(id:)` for an invitation: admins only. */
export function invitationNodeLookup(invitations: InvitationService): NodeLookup {
  return async (caller, id) => toInvitationView(await invitations.invitation(caller, id));
}

@Resolver()
export class InvitationResolver {
  constructor(private readonly service: InvitationService) {}

  @Query(() => InvitationConnection, {
    description: 'The invitations to sign up, newest first (admins only: FORBIDDEN for anyone else).',
  })
  async invitations(@Ctx() context: GraphQLContext, @Args(() => PageArgs) page: PageArgs): Promise<object> {
    const caller = requireCaller(context);
    const read = (offset: number, limit: number) => this.service.page(caller, offset, limit);
    return readPage(page, INVITATION_PAGES, read, toInvitationView);
  }

  @Mutation(() => CreateInvitationPayload, {
    description: `Makes an invitation to sign up, usable once for ${INVITATION_DAYS} days, even while sign-up is invite-only (admins only).`,
  })
  async createInvitation(
    @Arg('input', () => CreateInvitationInput, { description: 'Who it is for.' }) input: CreateInvitationInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const made = await this.service.create(requireCaller(context), input.email ?? null);
    return { invitation: toInvitationView(made.invitation), code: made.code, link: made.link, emailed: made.emailed };
  }

  @Mutation(() => RevokeInvitationPayload, { description: 'Revokes an invitation not used yet (admins only).' })
  async revokeInvitation(
    @Arg('input', () => RevokeInvitationInput, { description: 'The invitation.' }) input: RevokeInvitationInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const revoked = await this.service.revoke(requireCaller(context), idOf(input.id, 'Invitation'));
    return { invitation: toInvitationView(revoked) };
  }
}
