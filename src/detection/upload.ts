import { AppError } from '../platform/errors';

/** The error of a statement over the upload limit. */
export const statementTooLarge = () =>
  new AppError('PAYLOAD_TOO_LARGE', 'The statement is over the 10 MB an analysis takes.');
