/**
 * The node flags `npm start` gives the server (package.json's start script; test/unit/release.test.ts keeps
 * the two equal): a young generation of 2 × 2 MB instead of 2 × 16, and one V8 helper thread instead of four
 * (see main.ts). Only node's command line can set them, so `subledger` starts the server as a child process
 * with them; API processes under the supervisor inherit them.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2', '--v8-pool-size=1'];
