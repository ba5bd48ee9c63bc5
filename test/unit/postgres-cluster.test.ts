import { EmbeddedDatabaseError, execute } from '../../src/platform/db/postgres-cluster';

describe('running a PostgreSQL binary', () => {
  it('reports a binary that exits before reading its input as failed, without an unhandled EPIPE', async () => {
    // More than a pipe holds, so the write is still under way when the reader is gone.
    const input = 'x'.repeat(1 << 20);
    const run = execute('/bin/sh', ['-c', 'echo refused >&2; exit 3'], {}, input);
    await expect(run).rejects.toThrow(EmbeddedDatabaseError);
    await expect(run).rejects.toThrow('sh failed (code 3): refused');
  });

  it('resolves once a binary has read its input and exited 0', async () => {
    await expect(execute('/bin/sh', ['-c', 'cat >/dev/null'], {}, 'x'.repeat(1 << 20))).resolves.toBeUndefined();
  });
});
