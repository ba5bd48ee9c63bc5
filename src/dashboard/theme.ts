import type { Theme } from './graphql.generated';

const KEY = 'subledger.theme';

/** The profile's theme on the page (SYSTEM: the device's light or dark), kept for the next load's first paint. */
export function applyTheme(theme: Theme): void {
  if (theme === 'SYSTEM') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme.toLowerCase();
  localStorage.setItem(KEY, theme);
}

/** The theme the last load was given, until the profile is read again. */
export function applyKeptTheme(): void {
  const kept = localStorage.getItem(KEY);
  if (kept === 'LIGHT' || kept === 'DARK') document.documentElement.dataset.theme = kept.toLowerCase();
}
