import { startTestApp, type TestApp } from '../support/test-app';

/** The headers issue 43 asks of every page, and of the API's answers alike. */
describe('security headers', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const html = { accept: 'text/html' };

  it.each([
    ['the dashboard', '/', html],
    ['GraphiQL', '/graphql', html],
    ['the API reference', '/docs', html],
    ['a REST answer', '/api/v1/subscriptions', {}],
    ['the health check', '/healthz', {}],
  ])(
    '%s carries a CSP without inline script, and refuses framing, sniffing and referrers',
    async (_name, route, headers) => {
      const response = await fetch(`${testApp.baseUrl}${route}`, { headers });
      await response.arrayBuffer();
      const policy = Object.fromEntries(
        (response.headers.get('content-security-policy') ?? '')
          .split(';')
          .map((directive) => directive.trim().split(/\s+/))
          .map(([name, ...sources]) => [name, sources]),
      );
      expect(policy['default-src']).toEqual(["'self'"]);
      expect(policy['script-src']).toEqual(["'self'"]);
      expect(policy['frame-ancestors']).toEqual(["'none'"]);
      expect(policy['object-src']).toEqual(["'none'"]);
      // A plain-HTTP instance on a LAN would have every request upgraded to one that fails.
      expect(policy).not.toHaveProperty('upgrade-insecure-requests');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      // TLS and its policy are the operator's proxy's.
      expect(response.headers.get('strict-transport-security')).toBeNull();
    },
  );

  it.each([
    ['the dashboard', '/'],
    ['GraphiQL', '/graphql'],
    ['the API reference', '/docs'],
  ])('%s has no inline script, and every script it loads is served here as JavaScript', async (_name, route) => {
    const page = await (await fetch(`${testApp.baseUrl}${route}`, { headers: html })).text();
    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(body.trim()).toBe('');
      const source = /\bsrc="([^"]+)"/.exec(attributes)?.[1];
      expect(source).toMatch(/^\//);
      const script = await fetch(`${testApp.baseUrl}${source}`);
      expect((await script.text()).length).toBeGreaterThan(0);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toMatch(/^(application|text)\/javascript/);
    }
  });
});
