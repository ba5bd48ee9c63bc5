/**
 * The frame of a screen loaded the first time it opens: main.tsx's SCREENS import every screen but the first
 * with `import()` through preact/compat's `lazy`, which makes its code (and chart.js, for the screens that
 * chart) a chunk of its own that the first screen does not wait for (scripts/dashboard-bundle.mjs).
 */
import type { ComponentChildren } from 'preact';
import { Suspense } from 'preact/compat';
import { useErrorBoundary } from 'preact/hooks';

import { t } from './i18n';

/** A screen, with a line while its code loads, and a way to try again when it did not load. */
export function ScreenFrame({ children }: { children: ComponentChildren }) {
  const [failed] = useErrorBoundary();
  if (failed)
    return (
      <p role="alert">
        {t('app:screenFailed')}{' '}
        <button type="button" onClick={() => location.reload()}>
          {t('app:tryAgain')}
        </button>
      </p>
    );
  return <Suspense fallback={<p role="status">{t('app:loading')}</p>}>{children}</Suspense>;
}
