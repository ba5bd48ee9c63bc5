// Lint rules: the recommended JavaScript and type-aware TypeScript sets; formatting is Prettier's.
import js from '@eslint/js';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'dist-bench/**', 'node_modules/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: {
      // One import order everywhere, fixed by `npm run format`.
      'simple-import-sort/imports': 'error',
      'simple-import-sort/exports': 'error',
      // Unused names are refused by tsc (noUnusedLocals); `_` prefixes mark deliberate ones.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
      eqeqeq: ['error', 'always'],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      // Required lazily, for memory: bullmq, ioredis and nodemailer only where Redis or SMTP are configured, the
      // import and rates-source parsers only with the first import or refresh, undici with the first delivery,
      // the migrator only when migrations are pending.
      '@typescript-eslint/no-require-imports': [
        'error',
        {
          allow: [
            '^bullmq$',
            '^ioredis$',
            '^nodemailer$',
            '^csv-parse$',
            '^csv-parse/sync$',
            '^@streamparser/json-node$',
            '^fast-xml-parser$',
            '^saxes$',
            '^undici$',
            '^@mikro-orm/migrations$',
          ],
        },
      ],
    },
  },
  {
    files: [
      'test/**',
      'src/cli.ts',
      'src/runtime/print-schema.ts',
      'src/platform/db/build-postgres-template.ts',
      'src/db/create-migration.ts',
    ],
    // Tests read loosely typed HTTP answers.
    rules: { 'no-console': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Plain Node scripts, outside the TypeScript project (scripts/build.mjs runs before anything is compiled).
    files: ['eslint.config.mjs', 'commitlint.config.mjs', 'scripts/**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
