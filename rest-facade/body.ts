import { parse as parseJsonText } from '@humanwhocodes/momoa';
import busboy from 'busboy';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

import { AppError, type FieldErrors, refuseFieldErrors } from '../src/platform/errors';

/** Largest request body accepted, in bytes. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
const MAX_FIELDS = 200;

/** A parsed form: a field sent once is a string; a repeated field (or one named `x[]`) is an array under `x`. */
export type FormBody = Record<string, string | string[]>;

/** A form with no prototype: field names such as `__proto__` or `constructor` are plain keys in it. */
function emptyForm(): FormBody {
  return Object.create(null) as FormBody;
}

function addField(body: FormBody, rawName: string, value: string): void {
  const isList = rawName.endsWith('[]');
  const name = isList ? rawName.slice(0, -2) : rawName;
  const existing = body[name];
  if (existing === undefined) body[name] = isList ? [value] : value;
  else body[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
}

/** multipart/form-data through busboy; files are not accepted. */
function parseMultipart(req: Request): Promise<FormBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fieldSize: BODY_LIMIT_BYTES, fields: MAX_FIELDS, files: 0, parts: MAX_FIELDS },
      });
    } catch {
      reject(AppError.badInput('Malformed multipart body: missing boundary'));
      return;
    }
    const body = emptyForm();
    let received = 0;
    let failed = false;
    const fail = (error: AppError) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.resume();
      reject(error);
    };
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > BODY_LIMIT_BYTES) fail(new AppError('PAYLOAD_TOO_LARGE', 'Request body too large'));
    });
    parser.on('field', (name: string | undefined, value, info) => {
      if (info.nameTruncated || info.valueTruncated) fail(new AppError('PAYLOAD_TOO_LARGE', 'Request body too large'));
      // A part without a name (no content-disposition name) was an uncaught TypeError that stopped the process.
      else if (typeof name !== 'string' || name === '')
        fail(AppError.badInput('Malformed multipart body: a part has no field name'));
      else addField(body, name, value);
    });
    parser.on('file', (_name, stream) => stream.resume());
    parser.on('filesLimit', () => fail(AppError.badInput('File uploads are not accepted')));
    parser.on('fieldsLimit', () => fail(new AppError('PAYLOAD_TOO_LARGE', 'Too many fields')));
    parser.on('partsLimit', () => fail(new AppError('PAYLOAD_TOO_LARGE', 'Too many fields')));
    parser.on('error', () => fail(AppError.badInput('Malformed multipart body')));
    parser.on('close', () => {
      if (!failed) resolve(body);
    });
    req.pipe(parser);
  });
}

const urlencoded = express.urlencoded({ extended: false, limit: BODY_LIMIT_BYTES, parameterLimit: MAX_FIELDS });

/**
 * A field sent twice is refused on every encoding: forms keep both values (and the reader refuses them),
 * but JSON.parse keeps the last silently, so a JSON body's top-level keys are checked on its text.
 */
export function refuseDuplicateKeys(_req: unknown, _res: unknown, raw: Buffer): void {
  let document: ReturnType<typeof parseJsonText>;
  try {
    document = parseJsonText(raw.toString('utf8'));
  } catch {
    return; // Not JSON: the parser that follows says so.
  }
  if (document.body.type !== 'Object') return;
  const seen = new Set<string>();
  const twice: FieldErrors = {};
  for (const { name } of document.body.members) {
    const key = name.type === 'String' ? name.value : String(name.name);
    if (seen.has(key)) twice[key] = [`The ${key} field must be sent once.`];
    seen.add(key);
  }
  refuseFieldErrors(twice);
}

export const json = express.json({ limit: BODY_LIMIT_BYTES, verify: refuseDuplicateKeys });

/** Normalises an urlencoded or JSON body to a FormBody (so `tags[]` reads the same from every encoding). */
export function normalise(raw: unknown): FormBody {
  const body = emptyForm();
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return body;
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === null || item === undefined) continue;
      addField(
        body,
        Array.isArray(value) && !name.endsWith('[]') ? `${name}[]` : name,
        typeof item === 'object' ? JSON.stringify(item) : String(item),
      );
    }
  }
  return body;
}

/**
 * Parses a write's body by its content type: multipart (POST as the spec sends it), URL-encoded (PUT), or
 * JSON. No body is an empty form; a body without a content type, or of any other type, is refused with 415.
 */
export const parseBody: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
  const length = Number(req.headers['content-length'] ?? 0);
  if (length > BODY_LIMIT_BYTES) return next(new AppError('PAYLOAD_TOO_LARGE', 'Request body too large'));
  const type = req.headers['content-type'] ?? '';
  if (!req.readable || (length === 0 && !req.headers['transfer-encoding'])) {
    req.body = emptyForm();
    return next();
  }
  // A body without a content type cannot be read; taking it as empty would answer "updated" for nothing.
  if (type === '')
    return next(
      new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Send a Content-Type: multipart/form-data, application/x-www-form-urlencoded or application/json',
      ),
    );
  if (type.startsWith('multipart/form-data')) {
    parseMultipart(req).then((body) => {
      req.body = body;
      next();
    }, next);
    return;
  }
  const parser = type.startsWith('application/x-www-form-urlencoded')
    ? urlencoded
    : /[/+]json\b/.test(type)
      ? json
      : null;
  if (!parser)
    return next(
      new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Send multipart/form-data, application/x-www-form-urlencoded or application/json',
      ),
    );
  parser(req, res, (error?: unknown) => {
    if (error) return next(error);
    req.body = normalise(req.body);
    next();
  });
};
