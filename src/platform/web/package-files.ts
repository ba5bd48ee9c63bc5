import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { RequestHandler } from 'express';

import VENDOR_ASSETS from './vendor-assets.json';

/**
 * A file shipped inside an installed npm package (browser bundles served to the pages), found from the
 * package's entry point: packages' `exports` hide their other files from require.resolve.
 */
export function packageFile(packageName: string, relativePath: string): string {
  let folder = path.dirname(require.resolve(packageName));
  for (;;) {
    const manifest = path.join(folder, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === packageName
    ) {
      return path.join(folder, relativePath);
    }
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error(`${packageName} is not installed`);
    folder = parent;
  }
}

/**
 * A browser file of a package the pages serve (GraphiQL, React, Scalar), listed in vendor-assets.json: from
 * dist/assets/<package>/, where `npm run build` copies them (the installed release has them there and does not
 * install those packages), else from the installed package (tests running from src/).
 */
export function vendorAsset(packageName: string, relativePath: string): string {
  const listed = (VENDOR_ASSETS as Record<string, string[] | undefined>)[packageName] ?? [];
  if (!listed.includes(relativePath))
    throw new Error(`${packageName}/${relativePath} is not listed in src/platform/web/vendor-assets.json`);
  // From dist/src/platform/web/ (the built server), then the checkout's dist/ from src/platform/web/.
  const folders = [path.resolve(__dirname, '../../../assets'), path.resolve(__dirname, '../../../dist/assets')];
  const [built, checkoutCopy] = folders.map((folder) => path.join(folder, packageName, relativePath));
  if (existsSync(built)) return built;
  try {
    return packageFile(packageName, relativePath);
  } catch {
    if (existsSync(checkoutCopy)) return checkoutCopy;
    throw new Error(
      `${packageName}/${relativePath} is neither in ${folders[0]} (npm run build copies it there) nor installed`,
    );
  }
}

/** Serves named files (`/name` → absolute path) and nothing else; versioned by the package, so cached a day. */
export function servedFiles(files: Record<string, string>): RequestHandler {
  const byName = new Map(Object.entries(files));
  return (req, res, next) => {
    const file = byName.get(req.path.slice(1));
    if (!file) return next();
    res.sendFile(file, { maxAge: '1d' });
  };
}

/** A script the server writes itself: a page's start-up, kept out of the page for its Content-Security-Policy. */
export function servedScript(source: string): RequestHandler {
  return (_req, res) => {
    res.type('js').setHeader('Cache-Control', 'no-cache').send(source);
  };
}

/** A small HTML page, always revalidated (its assets carry the caching): the same head for every page the service renders itself. */
export function htmlPage(title: string, head: string, body: string): RequestHandler {
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${head}
</head>
<body>
${body}
</body>
</html>
`;
  return (_req, res) => {
    res.type('html').setHeader('Cache-Control', 'no-cache').send(page);
  };
}
