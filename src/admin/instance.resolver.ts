import {
  Arg,
  Args,
  Ctx,
  Field,
  InputType,
  Mutation,
  ObjectType,
  Query,
  registerEnumType,
  Resolver,
} from 'type-graphql';

import { PageArgs, readPage } from '../platform/graphql/connection';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import type { NodeLookup } from '../platform/graphql/node';
import { MutationPayload } from '../platform/graphql/payloads';
import type { AuditLog } from './audit.service';
import { AuditEntryConnection, toAuditEntryView } from './audit.types';
import { SignUpMode, type SignUpService } from './sign-up.service';

registerEnumType(SignUpMode, {
  name: 'SignUpMode',
  description: 'Who may sign up on this instance.',
  valuesConfig: {
    OPEN: { description: 'Anyone.' },
    INVITE_ONLY: { description: 'Those with an invitation code from an admin.' },
    CLOSED: { description: 'Nobody: accounts are made from the command line.' },
  },
});

@ObjectType('Instance', { description: 'This Subledger instance, as anyone (signed in or not) may see it.' })
class InstanceView {
  @Field(() => SignUpMode, { description: 'Who may sign up (what a login screen offers).' }) signUpMode!: SignUpMode;
}

@InputType('SetSignUpModeInput', { description: 'Who may sign up from now on.' })
class SetSignUpModeInput {
  @Field(() => SignUpMode, { description: 'The new mode; ALLOW_SIGNUP is the default until one is set.' })
  mode!: SignUpMode;
}

const SetSignUpModePayload = MutationPayload('SetSignUpModePayload', 'instance', () => InstanceView, 'The instance.');

/** The audit log's page sizes: 50 unless asked, at most 200. */
const AUDIT_PAGES = { defaultSize: 50, maxSize: 200 };

/** `node(id:)` for an audit entry: admins only. */
export function auditEntryNodeLookup(audit: AuditLog): NodeLookup {
  return async (caller, id) => toAuditEntryView(await audit.entry(caller, id));
}

@Resolver()
export class InstanceResolver {
  constructor(
    private readonly signUp: SignUpService,
    private readonly audit: AuditLog,
  ) {}

  @Query(() => InstanceView, { description: 'This instance: what anyone may know of it, signed in or not.' })
  async instance(): Promise<InstanceView> {
    return { signUpMode: await this.signUp.mode() };
  }

  @Mutation(() => SetSignUpModePayload, {
    description: 'Sets who may sign up, at once and in every process (admins only).',
  })
  async setSignUpMode(
    @Arg('input', () => SetSignUpModeInput, { description: 'The mode.' }) input: SetSignUpModeInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    return { instance: { signUpMode: await this.signUp.setMode(requireCaller(context), input.mode) } };
  }

  @Query(() => AuditEntryConnection, {
    description: 'What admins did, newest first (admins only: FORBIDDEN for anyone else).',
  })
  async auditLog(@Ctx() context: GraphQLContext, @Args(() => PageArgs) page: PageArgs): Promise<object> {
    const caller = requireCaller(context);
    return readPage(page, AUDIT_PAGES, (offset, limit) => this.audit.page(caller, offset, limit), toAuditEntryView);
  }
}
