import { type FileUpload, GraphQLUpload } from 'graphql-upload-minimal';
import { Arg, Ctx, Field, ID, InputType, Mutation, Resolver } from 'type-graphql';

import { AppError } from '../platform/errors';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { fromGlobalId } from '../platform/graphql/global-ids';
import { MutationPayload } from '../platform/graphql/payloads';
import { readUpload } from '../platform/uploads';
import { type LogoService, type LogoSubject, UPLOAD_MAX_BYTES } from './logo.service';

@InputType('UploadLogoInput', { description: 'An image to show as the logo of a record or of a private product.' })
class UploadLogoInput {
  @Field(() => ID, {
    description: 'The record (a SubscriptionRecord) or your private product (a Product), by global id.',
  })
  id!: string;
  @Field(() => GraphQLUpload, {
    description: `The image: a multipart upload (graphql-multipart-request-spec, mapped to variables.input.file), PNG, JPEG or WebP by its content, at most ${UPLOAD_MAX_BYTES / 1024} KB.`,
  })
  file!: Promise<FileUpload>;
}

@InputType('RemoveLogoInput', { description: 'A record or private product whose uploaded logo is to be taken off.' })
class RemoveLogoInput {
  @Field(() => ID, {
    description: 'The record (a SubscriptionRecord) or your private product (a Product), by global id.',
  })
  id!: string;
}

const UploadLogoPayload = MutationPayload(
  'UploadLogoPayload',
  'logo',
  () => String,
  'The logo now shown: its URL, a path on this server.',
);
const RemoveLogoPayload = MutationPayload(
  'RemoveLogoPayload',
  'id',
  () => ID,
  'The record or product whose uploaded logo was taken off (its global id).',
);

/** The record or private product a global id names; any other id is not found. */
function subjectOf(id: string): LogoSubject {
  const decoded = fromGlobalId(id);
  if (decoded?.typeName === 'SubscriptionRecord') return { kind: 'record', id: decoded.id };
  if (decoded?.typeName === 'Product') return { kind: 'product', id: decoded.id };
  const message = `No record or private product has the id ${JSON.stringify(id)}.`;
  throw new AppError('NOT_FOUND', message, { id: [message] });
}

/** The error of a logo over its limit. */
const logoTooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `A logo may be at most ${UPLOAD_MAX_BYTES / 1024} KB.`);

@Resolver()
export class LogoResolver {
  constructor(private readonly logos: LogoService) {}

  @Mutation(() => UploadLogoPayload, {
    description: `Shows an uploaded image as the logo of one of your records or private products (PNG, JPEG or WebP, at most ${UPLOAD_MAX_BYTES / 1024} KB; re-encoded before it is kept). Another user's record, or a catalogue product, is not found.`,
  })
  async uploadLogo(
    @Arg('input', () => UploadLogoInput, { description: 'What the logo is for, and the image.' })
    input: UploadLogoInput,
    @Ctx() context: GraphQLContext,
  ): Promise<{ logo: string }> {
    const caller = requireCaller(context);
    // Read whole before anything may refuse it, so that the request's body is never left half read.
    const bytes = await readUpload((await input.file).createReadStream(), logoTooLarge);
    return { logo: await this.logos.upload(caller, subjectOf(input.id), bytes) };
  }

  @Mutation(() => RemoveLogoPayload, {
    description:
      "Takes the uploaded logo off one of your records or private products: a record shows its product's logo again, if any, else a monogram.",
  })
  async removeLogo(
    @Arg('input', () => RemoveLogoInput, { description: 'What the logo is taken off.' }) input: RemoveLogoInput,
    @Ctx() context: GraphQLContext,
  ): Promise<{ id: string }> {
    await this.logos.remove(requireCaller(context), subjectOf(input.id));
    return { id: input.id };
  }
}
