import { Router } from 'express';

import { htmlPage, servedFiles, servedScript, vendorAsset } from '../web/package-files';

const DEFAULT_QUERY = `# Sign in (or signUp), then put {"authorization": "Bearer <token>"} under Headers below.
mutation {
  login(input: { email: "you@example.com", password: "your password" }) {
    token
  }
}
`;

/**
 * GraphiQL at GET /graphql for browsers (the router is mounted there), from the installed packages
 * (graphiql's UMD build over React 18's), instead of Apollo's landing page, which loads its code from a CDN
 * and shows nothing offline. The token is pasted into the headers tab; nothing is kept in a cookie.
 */
export function graphiqlPage(): Router {
  const router = Router();
  router.use(
    '/assets',
    servedFiles({
      'react.js': vendorAsset('react', 'umd/react.production.min.js'),
      'react-dom.js': vendorAsset('react-dom', 'umd/react-dom.production.min.js'),
      'graphiql.js': vendorAsset('graphiql', 'graphiql.min.js'),
      'graphiql.css': vendorAsset('graphiql', 'graphiql.min.css'),
    }),
  );
  const page = htmlPage(
    'Subledger GraphQL',
    '<link rel="stylesheet" href="/graphql/assets/graphiql.css">\n<style>body{margin:0;height:100vh}#graphiql{height:100vh}</style>',
    `<div id="graphiql">Loading GraphiQL…</div>
<script src="/graphql/assets/react.js"></script>
<script src="/graphql/assets/react-dom.js"></script>
<script src="/graphql/assets/graphiql.js"></script>
<script src="/graphql/assets/start.js"></script>`,
  );
  router.get(
    '/assets/start.js',
    servedScript(`const fetcher = GraphiQL.createFetcher({ url: new URL('/graphql', location.href).href });
ReactDOM.createRoot(document.getElementById('graphiql')).render(
  React.createElement(GraphiQL, {
    fetcher,
    defaultEditorToolsVisibility: true,
    defaultQuery: ${JSON.stringify(DEFAULT_QUERY)},
  }),
);
`),
  );
  // A browser's navigation (it asks for HTML, sends no query); API clients' GETs go on to Apollo.
  router.get('/', (req, res, next) => {
    if (req.query.query !== undefined || req.accepts(['application/json', 'text/html']) !== 'text/html') return next();
    page(req, res, next);
  });
  return router;
}
