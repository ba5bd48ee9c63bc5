export default async function globalTeardown(): Promise<void> {
  const factory = globalThis.pgliteFactory;
  if (!factory) return;
  await Promise.all([...factory.instances.values()].map((instance) => instance.stop()));
  await new Promise<void>((resolve) => factory.server.close(() => resolve()));
}
