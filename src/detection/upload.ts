import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';

import { AppError } from '../platform/errors';

/** The error of a statement over the upload limit. */
export const statementTooLarge = () =>
  new AppError('PAYLOAD_TOO_LARGE', 'The statement is over the 10 MB an analysis takes.');

/** An uploaded statement's bytes; over the upload limit (the upload's 413, or a stream cut at it), refused. */
export async function readUpload(stream: Readable): Promise<Buffer> {
  try {
    const bytes = await buffer(stream);
    if ((stream as { truncated?: boolean }).truncated === true) throw statementTooLarge();
    return bytes;
  } catch (error) {
    if ((error as { status?: number }).status === 413) throw statementTooLarge();
    throw error;
  }
}
