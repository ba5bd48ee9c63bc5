/**
 * The dashboard as an installed app: its service worker (service-worker/worker.ts, served at /sw.js), which
 * keeps the shell so the page opens without a network, and the notice saying so over every screen: while the
 * browser is offline, or since a request found no server (api.ts), until it is online or a request answers.
 */
import { useEffect, useReducer, useState } from 'preact/hooks';

import { REACHABLE, UNREACHABLE } from './api';
import { LANGUAGE_CHANGED, t } from './i18n';

/** Registers the service worker once the page has loaded, so its precaching does not slow the first screen. */
export function registerServiceWorker(): void {
  // Not offered on plain HTTP but at localhost: a LAN instance without TLS runs without it.
  if (!('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  });
}

export function OfflineNotice() {
  const [offline, setOffline] = useState(!navigator.onLine);
  const [unreachable, setUnreachable] = useState(false);
  // Drawn anew when the language changes (it is outside the screens, which are).
  const [, redraw] = useReducer((count: number) => count + 1, 0);
  useEffect(() => {
    const listeners: Record<string, () => void> = {
      offline: () => setOffline(true),
      online: () => {
        setOffline(false);
        setUnreachable(false);
      },
      [UNREACHABLE]: () => setUnreachable(true),
      [REACHABLE]: () => setUnreachable(false),
      [LANGUAGE_CHANGED]: () => redraw(undefined),
    };
    for (const [event, listener] of Object.entries(listeners)) window.addEventListener(event, listener);
    return () => {
      for (const [event, listener] of Object.entries(listeners)) window.removeEventListener(event, listener);
    };
  }, []);
  // The live region is always there, so a screen reader hears the notice when it appears.
  return (
    <div class="offline-notice" role="status">
      {(offline || unreachable) && <p>{t(offline ? 'app:offline' : 'app:unreachable')}</p>}
    </div>
  );
}
