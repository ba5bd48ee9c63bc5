import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

// npm test builds dist/dashboard first (pretest → build → build:dashboard).
const BUNDLE = path.resolve(__dirname, '../../dist/dashboard');
const BUDGET_BYTES = 150 * 1024;

it('ships the dashboard in at most 150 KB of gzipped JavaScript and CSS', () => {
  const sizes = ['main.js', 'main.css'].map((file) => gzipSync(readFileSync(path.join(BUNDLE, file))).length);
  expect(sizes.every((size) => size > 500)).toBe(true);
  expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(BUDGET_BYTES);
});
