/**
 * A chart of the charting screens (statistics, spending), drawn by chart.js: in the chunk of those screens only.
 */
import { Chart, type ChartConfiguration } from 'chart.js';
import { useEffect, useRef, useState } from 'preact/hooks';

/** A number that changes with the page's theme: the profile's (data-theme) or the device's light or dark. */
function useThemeChanges(): number {
  const [changes, setChanges] = useState(0);
  useEffect(() => {
    const changed = () => setChanges((count) => count + 1);
    const profile = new MutationObserver(changed);
    profile.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    const device = matchMedia('(prefers-color-scheme: dark)');
    device.addEventListener('change', changed);
    return () => {
      profile.disconnect();
      device.removeEventListener('change', changed);
    };
  }, []);
  return changes;
}

/**
 * A chart on a canvas named for screen readers (its numbers are in the table beside it), drawn anew when its
 * `data` or the theme changes (its text and borders take the theme's colours).
 */
export function ChartCanvas({ name, data, config }: { name: string; data: unknown; config: () => ChartConfiguration }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const theme = useThemeChanges();
  useEffect(() => {
    if (!canvas.current) return undefined;
    // The theme's text colour, resolved (the variables hold light-dark() pairs chart.js cannot read).
    const text = getComputedStyle(document.body).color;
    Chart.defaults.color = text;
    Chart.defaults.borderColor = 'rgba(128, 128, 128, 0.3)';
    const chart = new Chart(canvas.current, config());
    return () => chart.destroy();
  }, [data, theme]);
  return (
    <div class="chart">
      <canvas ref={canvas} role="img" aria-label={name} />
    </div>
  );
}
