import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

// npm test builds the dashboard first (pretest → build → build:dashboard): dist/dashboard/, and what the first
// screen loads with esbuild's metafile in dist/dashboard-meta.json (scripts/dashboard-bundle.mjs).
const DIST = path.resolve(__dirname, '../../dist');
const BUNDLE = path.join(DIST, 'dashboard');
const BUDGET_BYTES = 150 * 1024;

interface Meta {
  firstScreen: string[];
  metafile: { outputs: Record<string, { inputs: Record<string, unknown> }> };
}
const { firstScreen, metafile } = JSON.parse(readFileSync(path.join(DIST, 'dashboard-meta.json'), 'utf8')) as Meta;

/** The sources bundled into the files (their paths: src/dashboard/…, node_modules/<package>/…). */
const sourcesOf = (files: string[]) =>
  files.flatMap((file) => Object.keys(metafile.outputs[path.posix.join('dist/dashboard', file)].inputs));

/**
 * What the browser loads for the first screen, read from the files as it reads them: main.js, the chunks named
 * by the `import … from "…"` statements it starts with and theirs in turn (not an `import("…")`, which waits
 * for its screen).
 */
function staticallyImported(file: string, found = new Set<string>()): Set<string> {
  found.add(file);
  const code = readFileSync(path.join(BUNDLE, file), 'utf8');
  // esbuild writes a module's imports first, one statement after another.
  const statement = /\s*import\s*(?:[\w$\s{},*]*?\bfrom\s*)?["']([^"']+)["'];?/y;
  for (let match = statement.exec(code); match; match = statement.exec(code)) {
    const imported = path.posix.join(path.posix.dirname(file), match[1]!);
    if (!found.has(imported)) staticallyImported(imported, found);
  }
  return found;
}

describe('the first screen of the dashboard', () => {
  it('is main.js, the chunks it imports statically, and main.css', () => {
    expect([...firstScreen].sort()).toEqual([...staticallyImported('main.js'), 'main.css'].sort());
  });

  it('loads at most 150 KB of gzipped JavaScript and CSS', () => {
    const sizes = firstScreen.map((file) => gzipSync(readFileSync(path.join(BUNDLE, file))).length);
    expect(sizes.every((size) => size > 0)).toBe(true);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('leaves chart.js and the later screens to chunks loaded when their screen opens', () => {
    const firstSources = sourcesOf(firstScreen);
    const laterSources = sourcesOf(
      Object.keys(metafile.outputs)
        .map((output) => path.posix.relative('dist/dashboard', output))
        .filter((file) => file.endsWith('.js') && !firstScreen.includes(file)),
    );
    for (const later of ['node_modules/chart.js/', 'src/dashboard/spending.tsx', 'src/dashboard/subscriptions.tsx']) {
      expect(firstSources.filter((source) => source.includes(later))).toEqual([]);
      expect(laterSources.some((source) => source.includes(later))).toBe(true);
    }
  });
});
