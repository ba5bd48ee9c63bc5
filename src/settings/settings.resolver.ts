import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { definedOnly } from '../platform/objects';
import type { ExtensionSettings } from './extension-settings.entity';
import type { SettingsService } from './settings.service';

@ObjectType('ExtensionSettings')
class ExtensionSettingsView {
  @Field() autoDetectSubscriptions!: boolean;
  @Field() browserNotifications!: boolean;
  @Field(() => Int, { description: 'Days before a payment the extension notifies' }) notifyBefore!: number;
}

@InputType()
class ExtensionSettingsInput {
  @Field(() => Boolean, { nullable: true }) autoDetectSubscriptions?: boolean;
  @Field(() => Boolean, { nullable: true }) browserNotifications?: boolean;
  @Field(() => Int, { nullable: true }) notifyBefore?: number;
}

const toView = (settings: ExtensionSettings): ExtensionSettingsView => ({
  autoDetectSubscriptions: settings.autoDetectSubscriptions === 1,
  browserNotifications: settings.browserNotifications === 1,
  notifyBefore: settings.notifyBefore,
});

const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

@Resolver()
export class SettingsResolver {
  constructor(private readonly settings: SettingsService) {}

  @Query(() => ExtensionSettingsView)
  async extensionSettings(@Ctx() context: GraphQLContext): Promise<ExtensionSettingsView> {
    return toView(await this.settings.get(requireCaller(context)));
  }

  @Mutation(() => ExtensionSettingsView)
  async updateExtensionSettings(
    @Arg('input', () => ExtensionSettingsInput) input: ExtensionSettingsInput,
    @Ctx() context: GraphQLContext,
  ): Promise<ExtensionSettingsView> {
    const change = definedOnly({
      autoDetectSubscriptions: flag(input.autoDetectSubscriptions),
      browserNotifications: flag(input.browserNotifications),
      notifyBefore: input.notifyBefore,
    });
    return toView(await this.settings.update(requireCaller(context), change));
  }
}
