import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Every statement on a table lives in that table's repository (`*.repository.ts`, with its SQL texts in
 * `*.sql.ts`); migrations and the database machinery in src/platform/db are the only other places with SQL.
 */
const ROOT = path.resolve(__dirname, '../..');
const ALLOWED = [/\.repository\.ts$/, /\.sql\.ts$/, /^src\/db\/migrations\//, /^src\/platform\/db\//];
/** A string or template literal that holds a statement. */
const LITERAL = /(`[^`]*`|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")/g;
const STATEMENT = /\b(select\b[\s\S]*\bfrom\b|insert\s+into\b|update\s+"|delete\s+from\b)/i;

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

function statementsIn(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(LITERAL)].map((match) => match[1]).filter((literal) => STATEMENT.test(literal));
}

describe('SQL placement', () => {
  const files = [...sourceFiles('src'), ...sourceFiles('rest-facade'), ...sourceFiles('workers')];

  it('finds the statements it looks for (the repositories hold some)', () => {
    const inRepositories = files.filter((file) => ALLOWED.some((rule) => rule.test(file))).flatMap(statementsIn);
    expect(inRepositories.length).toBeGreaterThan(20);
  });

  it('has no statement with positional `?` placeholders (values go in through the `sql` tag)', () => {
    const positional = files
      .flatMap((file) => statementsIn(file).map((statement) => ({ file, statement })))
      .filter(({ statement }) => /[\s(,=<>]\?(?![|&])/.test(statement.replace(/\$\{[^}]*\}/g, '')))
      .map(({ file, statement }) => `${file}: ${statement.replace(/\s+/g, ' ').slice(0, 90)}`);
    expect(positional).toEqual([]);
  });

  it('has no SQL statement outside repositories, migrations and the database machinery', () => {
    const outside = files
      .filter((file) => !ALLOWED.some((rule) => rule.test(file)))
      .flatMap((file) =>
        statementsIn(file).map((statement) => `${file}: ${statement.replace(/\s+/g, ' ').slice(0, 90)}`),
      );
    expect(outside).toEqual([]);
  });
});

/**
 * Services and everything above them reach data only through repositories: outside the repositories, the
 * entities, the database machinery (src/db, src/platform/db) and the composition (src/runtime), nothing imports
 * MikroORM or calls an EntityManager. The error taxonomy maps MikroORM's exceptions, so it may import them.
 */
const ORM_ALLOWED = [
  /\.repository\.ts$/,
  /\.sql\.ts$/,
  /\.entity\.ts$/,
  /^src\/db\//,
  /^src\/platform\/db\//,
  /^src\/runtime\//,
  /^src\/platform\/errors\.ts$/,
];
const ORM_USE = /from '@mikro-orm\/[a-z]+'|\bem\.(?!\w+\s*:)[a-zA-Z]+\(|\.em\b|\bEntityManager\b/;

describe('ORM placement', () => {
  const files = [...sourceFiles('src'), ...sourceFiles('rest-facade'), ...sourceFiles('workers')];

  it('finds the ORM use it looks for (the repositories have some)', () => {
    const inRepositories = files.filter(
      (file) => file.endsWith('.repository.ts') && ORM_USE.test(readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(inRepositories.length).toBeGreaterThan(5);
  });

  it('has no MikroORM import or EntityManager call outside repositories, entities and the database machinery', () => {
    const outside = files
      .filter((file) => !ORM_ALLOWED.some((rule) => rule.test(file)))
      .flatMap((file) =>
        readFileSync(path.join(ROOT, file), 'utf8')
          .split('\n')
          .flatMap((line, index) => (ORM_USE.test(line) ? [`${file}:${index + 1}: ${line.trim().slice(0, 90)}`] : [])),
      );
    expect(outside).toEqual([]);
  });
});
