import { AppError, type FieldErrors } from '../src/errors';
import type { FormBody } from './body';

/** Reads fields of a parsed form, collecting a message per bad field; `done()` throws them all at once. */
export class FormReader {
  private readonly problems: FieldErrors = {};

  constructor(private readonly body: FormBody) {}

  /** A single, non-empty string field. */
  requiredString(name: string, maxLength = 1000): string {
    const value = this.body[name];
    if (value === undefined || value === '') return this.fail(name, `The ${name} field is required.`, '');
    if (Array.isArray(value)) return this.fail(name, `The ${name} field must be sent once.`, '');
    if (value.length > maxLength) return this.fail(name, `The ${name} field must be at most ${maxLength} characters.`, '');
    return value;
  }

  done(): void {
    if (Object.keys(this.problems).length > 0) throw AppError.badInput('The given data was invalid', this.problems);
  }

  private fail<T>(name: string, message: string, placeholder: T): T {
    (this.problems[name] ??= []).push(message);
    return placeholder;
  }
}
