import { type FieldErrors, refuseFieldErrors } from '../src/platform/errors';
import { characterCount } from '../src/platform/objects';
import type { FormBody } from './body';

type Source = Record<string, unknown>;

/**
 * Reads the fields of a form (or a query string) into typed values, collecting a message per bad field;
 * `done()` throws them all at once. An absent or empty optional field reads as undefined.
 */
/** A non-negative decimal as forms send it (digits, an optional point and fraction). */
export const DECIMAL = /^\d{1,12}(\.\d+)?$/;

export class FormReader {
  private readonly problems: FieldErrors = {};

  constructor(private readonly body: FormBody | Source) {}

  /** A single string; required fields must be non-empty. */
  text(name: string, options: { required?: boolean; max?: number } = {}): string | undefined {
    const value = this.body[name];
    if (value === undefined || value === '') {
      if (options.required) this.fail(name, `The ${name} field is required.`);
      return undefined;
    }
    if (typeof value !== 'string') return this.fail(name, `The ${name} field must be sent once.`);
    if (options.max !== undefined && characterCount(value) > options.max)
      return this.fail(name, `The ${name} field must be at most ${options.max} characters.`);
    if (value.includes('\u0000')) return this.fail(name, `The ${name} field must not contain NUL characters.`);
    return value;
  }

  requiredText(name: string, max = 1000): string {
    return this.text(name, { required: true, max }) ?? '';
  }

  integer(name: string, options: { required?: boolean } = {}): number | undefined {
    const value = this.text(name, options);
    if (value === undefined) return undefined;
    if (!/^-?\d{1,9}$/.test(value.trim())) return this.fail(name, `The ${name} must be an integer.`);
    return Number(value.trim());
  }

  requiredInteger(name: string): number {
    return this.integer(name, { required: true }) ?? 0;
  }

  /** A 0/1 code that JSON clients may send as a boolean, as the original accepts (true is 1, false 0). */
  switch(name: string, options: { required?: boolean } = {}): number | undefined {
    const value = this.body[name];
    if (value === 'true' || value === 'false') return value === 'true' ? 1 : 0;
    return this.integer(name, options);
  }

  /** A non-negative decimal number, kept as its string. */
  decimal(name: string, options: { required?: boolean } = {}): string | undefined {
    const value = this.text(name, options)?.trim();
    if (value === undefined) return undefined;
    if (!DECIMAL.test(value)) return this.fail(name, `The ${name} must be a number of at least 0.`);
    return value;
  }

  /** Repeated values (`name[]` or a field sent more than once). */
  list(name: string): string[] | undefined {
    const value = this.body[name];
    if (value === undefined || value === '') return undefined;
    const values = Array.isArray(value) ? value : [value];
    if (values.some((item) => typeof item !== 'string'))
      return this.fail(name, `The ${name} field must be a list of strings.`);
    if (values.some((item) => item.includes('\u0000')))
      return this.fail(name, `The ${name} field must not contain NUL characters.`);
    return values as string[];
  }

  /** Records a problem found after reading (a rule between fields). */
  fail<T = undefined>(name: string, message: string): T {
    (this.problems[name] ??= []).push(message);
    return undefined as T;
  }

  /** Adds rule errors found on the typed values, for fields that have no reading error already. */
  merge(errors: FieldErrors): void {
    for (const [field, messages] of Object.entries(errors))
      if (!this.problems[field]) this.problems[field] = [...messages];
  }

  done(): void {
    refuseFieldErrors(this.problems);
  }
}
