import type { Request } from 'express';

import { AppError } from '../../src/platform/errors';
import type { SortKey } from '../../src/platform/objects';
import type { FormReader } from '../form';

/** The `:id` of a path: anything but a positive 32-bit integer names nothing, so it is "not found". */
export function pathId(req: Request, what: string): number {
  const raw = String(req.params.id);
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : 0;
  if (id < 1 || id > 2_147_483_647) throw AppError.notFound(what);
  return id;
}

/** start (default 0) and length (default and maximum given) of a list. */
export function listPaging(
  form: FormReader,
  defaultLength: number,
  maxLength: number,
): { start: number; length: number } {
  const start = form.integer('start') ?? 0;
  const length = form.integer('length') ?? defaultLength;
  if (start < 0) form.fail('start', 'The start must be 0 or more.');
  if (length < 1 || length > maxLength) form.fail('length', `The length must be from 1 to ${maxLength}.`);
  return { start: Math.max(0, start), length: Math.min(Math.max(1, length), maxLength) };
}

const MAX_SORT_KEYS = 5;

/**
 * `sort=<field>[:asc|desc][,<field>[:asc|desc]…]` on a whitelist of fields, a bare field meaning asc;
 * anything else is a 400 naming `sort`.
 */
export function readSort<F extends string>(
  form: FormReader,
  fields: readonly F[],
  fallback: SortKey<F>[],
): SortKey<F>[] {
  const text = form.text('sort', { max: 200 });
  if (text === undefined || text.trim() === '') return fallback;
  const keys: SortKey<F>[] = [];
  for (const part of text.split(',')) {
    const match = /^\s*([a-z_]+)\s*(?::\s*(asc|desc)\s*)?$/i.exec(part);
    const field = match?.[1].toLowerCase();
    if (
      !match ||
      !(fields as readonly string[]).includes(field!) ||
      keys.some((key) => key.field === field) ||
      keys.length === MAX_SORT_KEYS
    ) {
      form.fail(
        'sort',
        `The sort must be <field>[:asc|desc], comma-separated, with fields among ${fields.join(', ')}.`,
      );
      return fallback;
    }
    keys.push({ field: field as F, direction: (match[2]?.toLowerCase() ?? 'asc') as 'asc' | 'desc' });
  }
  return keys;
}

/** q, start, length and sort of a list (operations 8, 15 and 21 share the format). */
export function readPagedQuery<F extends string>(
  form: FormReader,
  sortFields: readonly F[],
  defaultSort: SortKey<F>[],
  lengths: { default: number; max: number } = { default: 10, max: 1000 },
) {
  const { start, length } = listPaging(form, lengths.default, lengths.max);
  return { q: form.text('q', { max: 200 }), start, length, sort: readSort(form, sortFields, defaultSort) };
}
