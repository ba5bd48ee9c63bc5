import { Arg, Ctx, Field, ID, InputType, Mutation, Query, Resolver } from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { idOf } from '../platform/graphql/global-ids';
import type { NodeLookup } from '../platform/graphql/node';
import { MutationPayload } from '../platform/graphql/payloads';
import type { AlertInput } from './alert.input';
import type { AlertService } from './alert.service';
import { AlertChangesInput, AlertFieldsInput, AlertView, toAlertInput, toAlertView } from './alert.types';

// Other features' resolvers (a record's alerts) show alerts as this one does.
export { AlertView, toAlertView };

@InputType('CreateAlertInput', { description: 'A new alert.' })
class CreateAlertInput extends AlertFieldsInput {}

@InputType('UpdateAlertInput', { description: 'Changes to one of your alerts: the fields given are set.' })
class UpdateAlertInput extends AlertChangesInput {
  @Field(() => ID, { description: 'The alert to change.' }) id!: string;
}

@InputType('DeleteAlertInput', { description: 'The alert to delete.' })
class DeleteAlertInput {
  @Field(() => ID, { description: 'The alert to delete; no record may use it.' }) id!: string;
}

const CreateAlertPayload = MutationPayload('CreateAlertPayload', 'alert', () => AlertView, 'The new alert.');
const UpdateAlertPayload = MutationPayload('UpdateAlertPayload', 'alert', () => AlertView, 'The changed alert.');
const DeleteAlertPayload = MutationPayload('DeleteAlertPayload', 'deletedAlertId', () => ID, 'The deleted alert.');

/** The most alerts `alerts` answers (the system default and a user's own: a handful in practice). */
const MAX_ALERTS = 1000;

/** `node(id:)` for an alert: the caller's own, or the system default. */
export function alertNodeLookup(service: AlertService): NodeLookup {
  return async (caller, id) => toAlertView(await service.get(caller, id));
}

@Resolver()
export class AlertResolver {
  constructor(private readonly service: AlertService) {}

  @Query(() => [AlertView], {
    description: `The system default alert and your own, oldest first (at most ${MAX_ALERTS}).`,
  })
  async alerts(@Ctx() context: GraphQLContext): Promise<AlertView[]> {
    const list = await this.service.list(requireCaller(context), {
      start: 0,
      length: MAX_ALERTS,
      sort: [{ field: 'id', direction: 'asc' }],
    });
    return list.map(toAlertView);
  }

  @Query(() => AlertView, { description: 'One of your alerts, or the system default; NOT_FOUND for any other.' })
  async alert(
    @Arg('id', () => ID, { description: 'The global id of the alert.' }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<AlertView> {
    return toAlertView(await this.service.get(requireCaller(context), idOf(id, 'Alert')));
  }

  @Mutation(() => CreateAlertPayload, { description: 'Makes an alert, for records to remind by.' })
  async createAlert(
    @Arg('input', () => CreateAlertInput, { description: 'The new alert.' }) input: CreateAlertInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const alert = await this.service.create(requireCaller(context), toAlertInput(input) as AlertInput);
    return { alert: toAlertView(alert) };
  }

  @Mutation(() => UpdateAlertPayload, {
    description: 'Changes one of your alerts; the reminders of the records using it move with it.',
  })
  async updateAlert(
    @Arg('input', () => UpdateAlertInput, { description: 'The alert and its changes.' }) input: UpdateAlertInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const { id, ...changes } = input;
    const alert = await this.service.update(requireCaller(context), idOf(id, 'Alert'), toAlertInput(changes));
    return { alert: toAlertView(alert) };
  }

  @Mutation(() => DeleteAlertPayload, {
    description: 'Deletes one of your alerts; refused (IN_USE) while a record, deleted ones included, uses it.',
  })
  async deleteAlert(
    @Arg('input', () => DeleteAlertInput, { description: 'The alert to delete.' }) input: DeleteAlertInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    await this.service.remove(requireCaller(context), idOf(input.id, 'Alert'));
    return { deletedAlertId: input.id };
  }
}
