import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';

import type { AppError } from './errors';

/**
 * An uploaded file's bytes; over the upload limit (the upload's 413, or a stream cut at it), refused with
 * `tooLarge`, the feature's own words for its limit.
 */
export async function readUpload(stream: Readable, tooLarge: () => AppError): Promise<Buffer> {
  try {
    const bytes = await buffer(stream);
    if ((stream as { truncated?: boolean }).truncated === true) throw tooLarge();
    return bytes;
  } catch (error) {
    if ((error as { status?: number }).status === 413) throw tooLarge();
    throw error;
  }
}
