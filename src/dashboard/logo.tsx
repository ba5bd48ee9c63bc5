/**
 * A record's or product's logo beside its name: the image the server keeps (same origin, fetched or uploaded),
 * else a monogram of the name's initials on a colour drawn from the name. Decorative: the name beside it is
 * what is read out.
 */
export function Logo({ name, src, size = 32 }: { name: string; src?: string | null; size?: number }) {
  const style = { width: `${size}px`, height: `${size}px` };
  if (src) return <img class="logo" src={src} alt="" width={size} height={size} loading="lazy" decoding="async" />;
  return (
    // The letters are drawn by the style sheet (from data-initials), not text: a cell or button with a logo
    // reads, and is named, as the name beside it alone.
    <span
      class="logo monogram"
      aria-hidden="true"
      data-initials={initials(name)}
      style={{ ...style, background: monogramColour(name), fontSize: `${size * 0.42}px` }}
    />
  );
}

/** Up to two initials: of the first two words, or the first two letters of a single word. */
export function initials(name: string): string {
  const words = name
    .trim()
    .split(/[\s\-_.]+/u)
    .filter(Boolean);
  const letters =
    words.length > 1 ? [words[0], words[1]].map((word) => [...word][0]) : [...(words[0] ?? '?')].slice(0, 2);
  return letters.join('').toUpperCase();
}

/**
 * A colour from the name (the same name, the same colour): a hue from its characters, dark enough that white
 * initials on it pass WCAG AA in light and dark themes.
 */
export function monogramColour(name: string): string {
  let hash = 0;
  for (const character of name) hash = (hash * 31 + character.codePointAt(0)!) >>> 0;
  return `hsl(${hash % 360} 60% 28%)`;
}
