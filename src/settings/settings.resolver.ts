import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { MutationPayload } from '../platform/graphql/payloads';
import { definedOnly } from '../platform/objects';
import type { ExtensionSettings } from './extension-settings.entity';
import { MAX_NOTIFY_BEFORE, type SettingsService } from './settings.service';

@ObjectType('ExtensionSettings', { description: "The browser extension's settings (one set per user)." })
class ExtensionSettingsView {
  @Field({
    description: 'Whether the extension detects subscriptions on the pages you visit and offers to record them.',
  })
  autoDetectSubscriptions!: boolean;
  @Field({ description: 'Whether the extension shows browser notifications of reminders.' })
  browserNotifications!: boolean;
  @Field(() => Int, { description: 'How many days before a payment the extension notifies.' })
  notifyBefore!: number;
}

@InputType('UpdateExtensionSettingsInput', {
  description: "Changes to the browser extension's settings: the fields given (at least one) are set.",
})
class UpdateExtensionSettingsInput {
  @Field(() => Boolean, {
    nullable: true,
    description: 'Whether the extension detects subscriptions and offers to record them.',
  })
  autoDetectSubscriptions?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'Whether the extension shows browser notifications.' })
  browserNotifications?: boolean;
  @Field(() => Int, {
    nullable: true,
    description: `How many days before a payment the extension notifies, 0 to ${MAX_NOTIFY_BEFORE}.`,
  })
  notifyBefore?: number;
}

const UpdateExtensionSettingsPayload = MutationPayload(
  'UpdateExtensionSettingsPayload',
  'extensionSettings',
  () => ExtensionSettingsView,
  "The browser extension's settings, changed.",
);

const toView = (settings: ExtensionSettings): ExtensionSettingsView => ({
  autoDetectSubscriptions: settings.autoDetectSubscriptions === 1,
  browserNotifications: settings.browserNotifications === 1,
  notifyBefore: settings.notifyBefore,
});

const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

@Resolver()
export class SettingsResolver {
  constructor(private readonly settings: SettingsService) {}

  @Query(() => ExtensionSettingsView, { description: "Your browser extension's settings." })
  async extensionSettings(@Ctx() context: GraphQLContext): Promise<ExtensionSettingsView> {
    return toView(await this.settings.get(requireCaller(context)));
  }

  @Mutation(() => UpdateExtensionSettingsPayload, { description: "Changes your browser extension's settings." })
  async updateExtensionSettings(
    @Arg('input', () => UpdateExtensionSettingsInput, { description: 'The changes.' })
    input: UpdateExtensionSettingsInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const change = definedOnly({
      autoDetectSubscriptions: flag(input.autoDetectSubscriptions),
      browserNotifications: flag(input.browserNotifications),
      notifyBefore: input.notifyBefore,
    });
    return { extensionSettings: toView(await this.settings.update(requireCaller(context), change)) };
  }
}
