import { createHash } from 'node:crypto';

import { AppError } from '../platform/errors';

/** The side of the square every logo is stored and served at, in pixels (contained, on transparency). */
export const LOGO_SIZE = 128;

/** A logo's served media type (its extension in the URL is LOGO_EXTENSION). */
export const LOGO_MEDIA_TYPE = 'image/webp';

/** The kinds of image a logo is made from, as sharp's metadata names them (and `ico`, read apart). */
export type ImageKind = 'png' | 'jpeg' | 'webp' | 'gif' | 'svg' | 'ico';

/** An uploaded logo: what people have as files, none that draws from elsewhere (SVG) or moves (GIF). */
export const UPLOAD_KINDS: ReadonlySet<ImageKind> = new Set(['png', 'jpeg', 'webp']);
/** A fetched logo: what vendors serve as logos and favicons. */
export const FETCH_KINDS: ReadonlySet<ImageKind> = new Set(['png', 'jpeg', 'webp', 'gif', 'svg', 'ico']);

/** Pixels an input may decode to at most: a 4096×4096 picture; more is a decompression bomb, not a logo. */
const MAX_INPUT_PIXELS = 4096 * 4096;

/** A logo made: its bytes (a WebP) and its name, the first 32 hex digits of their SHA-256. */
export interface LogoImage {
  hash: string;
  bytes: Buffer;
}

/** An ICO file starts with a reserved 0 and type 1 (an icon), each two bytes little-endian. */
function isIco(bytes: Buffer): boolean {
  return bytes.length >= 6 && bytes.readUInt16LE(0) === 0 && bytes.readUInt16LE(2) === 1 && bytes.readUInt16LE(4) > 0;
}

const notAnImage = (kinds: ReadonlySet<ImageKind>) =>
  new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    `The file is not an image of a kind a logo is made from (${[...kinds].join(', ').toUpperCase()}).`,
  );

/**
 * sharp, loaded on first use and set for a server that makes a small image now and then: libvips keeps no cache
 * of operations (by default up to 50 MB of them) and works on one thread.
 */
function loadSharp(): typeof import('sharp') {
  const sharp = require('sharp') as typeof import('sharp');
  sharp.cache(false);
  sharp.concurrency(1);
  return sharp;
}

/**
 * The logo made of an image's bytes, whatever they were declared to be: their content decides (ICO by its
 * header, the rest by what sharp reads of them), and a kind outside `kinds` is refused
 * (UNSUPPORTED_MEDIA_TYPE). The image is decoded and drawn again, contained in a LOGO_SIZE square, as a WebP,
 * so nothing of the input but its pixels is served. sharp loads here, on the first logo, not with the module:
 * the API process that never makes one does not carry it.
 */
export async function makeLogo(input: Buffer, kinds: ReadonlySet<ImageKind>): Promise<LogoImage> {
  const sharp = loadSharp();
  let image: import('sharp').Sharp;
  if (isIco(input)) {
    if (!kinds.has('ico')) throw notAnImage(kinds);
    const icon = largestIcon(input);
    image = sharp(icon.data, { ...icon.options, limitInputPixels: MAX_INPUT_PIXELS });
  } else {
    const options = { limitInputPixels: MAX_INPUT_PIXELS };
    const format = await sharp(input, options)
      .metadata()
      .then((metadata) => metadata.format as string | undefined)
      .catch(() => undefined);
    if (!format || !kinds.has(format as ImageKind)) throw notAnImage(kinds);
    image = sharp(input, options);
  }
  try {
    const bytes = await image
      .resize(LOGO_SIZE, LOGO_SIZE, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .webp({ quality: 90 })
      .toBuffer();
    return { hash: createHash('sha256').update(bytes).digest('hex').slice(0, 32), bytes };
  } catch {
    // Headers that read well over pixels that do not (a truncated file): not an image either.
    throw notAnImage(kinds);
  }
}

/** The largest picture of an ICO file, as sharp's input: a PNG's bytes, or a bitmap's pixels. */
function largestIcon(input: Buffer): { data: Buffer; options: import('sharp').SharpOptions } {
  const decodeIco = require('decode-ico') as typeof import('decode-ico');
  let icons: ReturnType<typeof decodeIco>;
  try {
    icons = decodeIco(input);
  } catch {
    throw notAnImage(FETCH_KINDS);
  }
  const largest = icons.reduce<(typeof icons)[number] | undefined>(
    (best, icon) => (!best || icon.width * icon.height > best.width * best.height ? icon : best),
    undefined,
  );
  if (!largest || largest.width * largest.height > MAX_INPUT_PIXELS) throw notAnImage(FETCH_KINDS);
  const data = Buffer.from(largest.data.buffer, largest.data.byteOffset, largest.data.byteLength);
  return {
    data,
    options: largest.type === 'png' ? {} : { raw: { width: largest.width, height: largest.height, channels: 4 } },
  };
}
