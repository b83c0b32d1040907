import { describe, expect, it } from 'vitest';
import { isValidName } from '../src/ui/SignIn';

describe('user names (as the server checks them)', () => {
  it('takes letters, digits, _ and -, and Chinese characters', () => {
    for (const ok of ['bob', 'Ann_Lee', '王伟', '张志强', '李a', 'abcdefghijklmnopqrst']) expect(isValidName(ok), ok).toBe(true);
  });
  it('refuses short, long and other scripts', () => {
    for (const bad of ['', 'ab', '王', 'a b', 'abcdefghijklmnopqrstu', 'Ελένη', 'ｂｏｂ', '😀😀😀', '王　伟']) expect(isValidName(bad), bad).toBe(false);
  });
});
