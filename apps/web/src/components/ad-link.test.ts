import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { adLink } from './ad-link.ts';

beforeEach(() => vi.stubGlobal('location', new URL('https://yueman.example/home')));
afterEach(() => vi.unstubAllGlobals());

const ad = (jumpType: number, url = '', bizId = 0) => ({ jumpType, url, bizId });

describe('where tapping an ad goes', () => {
  it('follows a path of this site in the app (jump type -1)', () => {
    expect(adLink(ad(-1, '/home/kkbg'))).toEqual({ route: '/home/kkbg' });
    expect(adLink(ad(-1, '/book/7?from=ad'))).toEqual({ route: '/book/7?from=ad' });
  });

  it('leaves for a web address in this window (-1) or opens it in a new one (-2)', () => {
    expect(adLink(ad(-1, 'https://partner.example/offer'))).toEqual({
      leave: 'https://partner.example/offer',
    });
    expect(adLink(ad(-2, 'https://partner.example'))).toEqual({ open: 'https://partner.example/' });
    expect(adLink(ad(-2, 'http://partner.example/a?b=1'))).toEqual({ open: 'http://partner.example/a?b=1' });
  });

  it('opens the book (2) and the recharge centre (3)', () => {
    expect(adLink(ad(2, '', 7))).toEqual({ route: '/book/7' });
    expect(adLink(ad(3))).toEqual({ route: '/purchase' });
  });

  it('refuses another host dressed as a path, and addresses that run code', () => {
    for (const url of ['//evil.example', '/\\evil.example', '/\t/evil.example']) {
      expect(adLink(ad(-1, url)), url).toBeNull();
    }
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,<script>1</script>',
      '',
    ]) {
      expect(adLink(ad(-1, url)), url).toBeNull();
      expect(adLink(ad(-2, url)), url).toBeNull();
    }
  });

  it('does nothing for an unknown jump type', () => {
    expect(adLink(ad(0, 'https://partner.example'))).toBeNull();
    expect(adLink(ad(99, '/home'))).toBeNull();
  });
});
