import type { GatewayExecutor } from '@apollo/server-gateway-interface';
import { GraphQLObjectType, GraphQLSchema, GraphQLString, Kind, type OperationDefinitionNode, parse } from 'graphql';

import { executorGateway, type GraphQLExecution } from '../../src/platform/graphql/jit-executor';

/** Which executor called the resolver: graphql-js's own execute.js is on the stack, or compiled code is. */
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      ranBy: {
        type: GraphQLString,
        resolve: () =>
          /graphql[\\/]execution[\\/]execute\.js/.test(new Error().stack ?? '') ? 'graphql-js' : 'compiled',
      },
      echo: { type: GraphQLString, args: { text: { type: GraphQLString } }, resolve: (_, { text }) => text },
    },
  }),
});

async function executorOf(execution: GraphQLExecution) {
  const { executor } = await executorGateway(schema, execution).load({ apollo: {} as never });
  /** Runs `query` as Apollo would hand it over: parsed, validated, hashed. */
  return async (query: string) => {
    const document = parse(query);
    const operation = document.definitions.find((node) => node.kind === Kind.OPERATION_DEFINITION);
    const requestContext = {
      document,
      operation: operation as OperationDefinitionNode,
      operationName: null,
      queryHash: `hash of ${query}`,
      request: { query, variables: {} },
      context: {},
    };
    return (await (executor as GatewayExecutor)(requestContext as never)).data;
  };
}

it("runs a document's first run on graphql-js and compiles it when it comes again", async () => {
  const run = await executorOf('jit');
  expect(await run('{ ranBy }')).toEqual({ ranBy: 'graphql-js' });
  expect(await run('{ ranBy }')).toEqual({ ranBy: 'compiled' });
  expect(await run('{ ranBy }')).toEqual({ ranBy: 'compiled' });
  // Arguments written into the text make a document of its own each time: none is compiled, each is answered.
  for (const text of ['a', 'b', 'c'])
    expect(await run(`{ ranBy echo(text: "${text}") }`)).toEqual({ ranBy: 'graphql-js', echo: text });
});

it('compiles every document on its first run when eager, as the tests comparing the executors need', async () => {
  const run = await executorOf('jit-eager');
  expect(await run('{ ranBy }')).toEqual({ ranBy: 'compiled' });
});
