import { SecretBox } from '../../src/platform/secret-box';

describe('SecretBox', () => {
  const box = new SecretBox('a key of at least thirty-two characters');
  const url = 'tgram://123456789:AAHsecretBotToken/-100987654';

  it('opens what it sealed; the same text seals differently each time and shows nothing of it', () => {
    const [first, second] = [box.seal(url), box.seal(url)];
    expect(first).not.toBe(second);
    expect(first).not.toContain('AAHsecret');
    expect(first).toMatch(/^v1\./);
    expect(box.open(first)).toBe(url);
    expect(box.open(second)).toBe(url);
  });

  it('refuses a changed value and another key instead of opening to garbage', () => {
    const sealed = box.seal(url);
    const [version, iv, tag, text] = sealed.split('.');
    const flipped = Buffer.from(text, 'base64url');
    flipped[0] ^= 1;
    expect(() => box.open([version, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => new SecretBox('another key of at least thirty-two chars').open(sealed)).toThrow();
    expect(() => box.open('plain text')).toThrow('not a sealed value');
  });
});
