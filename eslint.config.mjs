// Lint rules: the recommended JavaScript and type-aware TypeScript sets; formatting is Prettier's. The GraphQL
// schema (schema/schema.graphql) and the dashboard's operations are linted by graphql-eslint, below.
import js from '@eslint/js';
import graphqlPlugin from '@graphql-eslint/eslint-plugin';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

const JS_AND_TS = ['**/*.{js,mjs,cjs,ts,tsx,mts,cts}'];
// One for every GraphQL file: graphql-eslint loads the first it is given and keeps it for the run.
const GRAPHQL_CONFIG = { schema: 'schema/schema.graphql', documents: 'src/dashboard/**/*.tsx' };

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-bench/**',
      'node_modules/**',
      'data/**',
      'coverage/**',
      // Written by `npm run codegen`; `npm run typecheck` checks it is current.
      'src/dashboard/graphql.generated.ts',
    ],
  },
  {
    // JavaScript and TypeScript only: the GraphQL files below have a parser and rules of their own.
    files: JS_AND_TS,
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
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
      // the migrator only when migrations are pending, openid-client (an ES module) only with single sign-on, sharp
      // and decode-ico with the first logo made.
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
            '^openid-client$',
            '^sharp$',
            '^decode-ico$',
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
  {
    // The schema the resolvers generate (`npm run schema:print`), held to the API's conventions: descriptions
    // everywhere, names and casing, one input and one payload per mutation, Relay connections, global ids.
    files: ['schema/schema.graphql'],
    languageOptions: {
      parser: graphqlPlugin.parser,
      parserOptions: { graphQLConfig: GRAPHQL_CONFIG },
    },
    plugins: { '@graphql-eslint': graphqlPlugin },
    rules: {
      '@graphql-eslint/require-description': [
        'error',
        {
          types: true,
          rootField: true,
          FieldDefinition: true,
          InputValueDefinition: true,
          EnumValueDefinition: true,
          DirectiveDefinition: true,
        },
      ],
      '@graphql-eslint/naming-convention': [
        'error',
        {
          types: 'PascalCase',
          FieldDefinition: 'camelCase',
          InputValueDefinition: 'camelCase',
          EnumValueDefinition: 'UPPER_CASE',
          allowLeadingUnderscore: false,
          allowTrailingUnderscore: false,
          'FieldDefinition[parent.name.value=Query]': { forbiddenPatterns: [/^(get|query)[A-Z]/, /Query$/] },
          'FieldDefinition[parent.name.value=Mutation]': { forbiddenPatterns: [/^mutation[A-Z]/, /Mutation$/] },
          'EnumTypeDefinition,EnumTypeExtension': { forbiddenPatterns: [/^Enum/, /Enum$/] },
          'InterfaceTypeDefinition,InterfaceTypeExtension': { forbiddenPatterns: [/^Interface/, /Interface$/] },
          'UnionTypeDefinition,UnionTypeExtension': { forbiddenPatterns: [/^Union/, /Union$/] },
          'ObjectTypeDefinition,ObjectTypeExtension': { forbiddenPatterns: [/^Type[A-Z]/, /Type$/] },
        },
      ],
      // createAlert(input: CreateAlertInput!): the one argument is `input`, of the mutation's own input type.
      '@graphql-eslint/input-name': [
        'error',
        { checkInputType: true, caseSensitiveInputType: false, checkMutations: true, checkQueries: false },
      ],
      '@graphql-eslint/no-typename-prefix': 'error',
      '@graphql-eslint/no-unreachable-types': 'error',
      '@graphql-eslint/no-hashtag-description': 'error',
      '@graphql-eslint/unique-enum-value-names': 'error',
      '@graphql-eslint/relay-connection-types': 'error',
      // Lists that do not grow stay plain lists ([HouseholdMember!]!); every connection's nodes are Nodes.
      '@graphql-eslint/relay-edge-types': [
        'error',
        // A list of values (a price history) pages as well as a list of objects: its items need no id.
        { withEdgeSuffix: true, shouldImplementNode: false, listTypeCanWrapOnlyEdgeType: false },
      ],
      '@graphql-eslint/relay-page-info': 'error',
      // Every object with an identity is a Node: `id: ID!` (a global id). Payloads, connections and values
      // (money, sums, settings, a row of a report) have none.
      '@graphql-eslint/strict-id-in-types': [
        'error',
        {
          acceptedIdNames: ['id'],
          acceptedIdTypes: ['ID'],
          exceptions: {
            suffixes: ['Payload', 'Connection', 'Edge'],
            types: [
              'PageInfo',
              'UserError',
              'Money',
              'PriceStep',
              'ProposedPriceStep',
              'StatementPayment',
              'StatementAnalysis',
              'SubscriptionSharing',
              'SubscriptionShare',
              'SpendingSummary',
              'SpendingGroup',
              'ExtensionSettings',
              'ExportLinks',
              // The instance itself: one, so nothing to tell apart.
              'Instance',
              'DeliveryAttempt',
              'ImportRowReport',
              'ImportMatch',
              // Not kept, so not found again: an import's answer, a calendar day, a live event.
              'ImportReport',
              'CalendarEntry',
              'RecordChanged',
              'DeliveryChanged',
              'ReminderFired',
              'BudgetExceeded',
              'ImportProblem',
              // The server's settings, one of them.
              'SignInMethods',
            ],
          },
        },
      ],
    },
  },
  // The dashboard's operations: the `/* GraphQL */` literals of its screens, linted as GraphQL documents of
  // their own (graphql-eslint's processor). Whether they are valid against the schema is codegen's check
  // (`npm run typecheck`); here their names, which the persisted operations and the generated types go by.
  { files: ['src/dashboard/**/*.tsx'], processor: graphqlPlugin.processor },
  {
    files: ['src/dashboard/**/*.graphql'],
    languageOptions: {
      parser: graphqlPlugin.parser,
      parserOptions: { graphQLConfig: GRAPHQL_CONFIG },
    },
    plugins: { '@graphql-eslint': graphqlPlugin },
    rules: {
      '@graphql-eslint/naming-convention': [
        'error',
        {
          VariableDefinition: 'camelCase',
          OperationDefinition: {
            style: 'PascalCase',
            // Codegen names their types <Name>Query and <Name>Mutation. (Subscription is a word of the domain.)
            forbiddenPatterns: [/^(Query|Mutation|Get)[A-Z]/, /(Query|Mutation)$/],
          },
        },
      ],
      '@graphql-eslint/no-anonymous-operations': 'error',
      '@graphql-eslint/unique-operation-name': 'error',
    },
  },
);
