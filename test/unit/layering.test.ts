import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The code's layers, checked on the import statements themselves:
 * - src/platform/ is shared machinery: it imports no feature and nothing that composes the runtime;
 * - a feature (src/<feature>/) imports platform and other features, never the composition (src/runtime/,
 *   src/db/, the entry points, rest-facade/, workers/), and no two features import each other, however
 *   indirectly.
 */
const ROOT = path.resolve(__dirname, '../..');
const COMPOSITION = new Set(['runtime', 'db', 'app.ts', 'main.ts', 'cli.ts', 'bin.ts']);

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

/** Where a repository-relative file lives: 'platform', a feature's folder, or 'composition'. */
function layerOf(file: string): string {
  const [top, second] = file.split(path.sep);
  if (top !== 'src') return 'composition';
  if (second === 'platform') return 'platform';
  return COMPOSITION.has(second) ? 'composition' : second;
}

/** The repository-relative files a file imports (relative specifiers only: packages are not layers). */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s+|import\s*\(\s*|require\(\s*)'(\.{1,2}\/[^']+)'/g)].map(
    (match) => match[1],
  );
  return specifiers.map((specifier) =>
    path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), specifier)),
  );
}

const files = [...sourceFiles('src'), ...sourceFiles('rest-facade'), ...sourceFiles('workers')];
const edges = files.flatMap((file) =>
  importsOf(file).map((target) => ({ file, target, from: layerOf(file), to: layerOf(`${target}.ts`) })),
);

describe('layering', () => {
  it('reads the imports of every layer', () => {
    const layers = new Set(edges.map((edge) => edge.from));
    expect([...layers]).toEqual(
      expect.arrayContaining(['platform', 'composition', 'subscriptions', 'alerts', 'reminders', 'webhooks', 'auth']),
    );
    expect(edges.length).toBeGreaterThan(300);
  });

  it('keeps src/platform free of features and of the composition', () => {
    const outward = edges.filter((edge) => edge.from === 'platform' && edge.to !== 'platform');
    expect(outward.map((edge) => `${edge.file} -> ${edge.target}`)).toEqual([]);
  });

  it('keeps features from importing the composition', () => {
    const upward = edges.filter(
      (edge) => edge.from !== 'platform' && edge.from !== 'composition' && edge.to === 'composition',
    );
    expect(upward.map((edge) => `${edge.file} -> ${edge.target}`)).toEqual([]);
  });

  it('builds every process through createRuntime: the entry points open no database and build no services', () => {
    const entryPoints = ['src/app.ts', 'src/cli.ts', 'workers/main.ts'];
    const composing = edges.filter(
      (edge) => entryPoints.includes(edge.file) && ['src/db/orm', 'src/runtime/services'].includes(edge.target),
    );
    expect(composing.map((edge) => `${edge.file} -> ${edge.target}`)).toEqual([]);
    for (const file of entryPoints) expect(importsOf(file)).toContain('src/runtime/runtime');
  });

  it('has no cycle between feature folders', () => {
    const graph = new Map<string, Set<string>>();
    for (const edge of edges) {
      if (
        ['platform', 'composition'].includes(edge.from) ||
        ['platform', 'composition'].includes(edge.to) ||
        edge.from === edge.to
      )
        continue;
      graph.set(edge.from, (graph.get(edge.from) ?? new Set()).add(edge.to));
    }
    const cycles: string[] = [];
    const visit = (node: string, trail: string[]) => {
      for (const next of graph.get(node) ?? []) {
        if (next === trail[0]) cycles.push([...trail, next].join(' -> '));
        else if (!trail.includes(next) && next > trail[0]) visit(next, [...trail, next]);
      }
    };
    for (const node of graph.keys()) visit(node, [node]);
    expect(cycles).toEqual([]);
  });
});
