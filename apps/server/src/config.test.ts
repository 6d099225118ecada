import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/yueman-config-test', ...env });

describe('TRUST_PROXY', () => {
  it('is off by default and takes a hop count or proxy addresses and ranges', () => {
    expect(load({}).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(load({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses "trust everything" and anything that is not an address, a range or a hop count', () => {
    for (const bad of ['true', 'yes', '10.0.0.0/33', '10.0.0', 'proxy.example.com', '17', '1.2.3.4/8/1']) {
      expect(() => load({ TRUST_PROXY: bad }), bad).toThrow(ConfigError);
    }
    expect(() => load({ TRUST_PROXY: 'true' })).toThrow(/hop count|CIDR/);
  });
});
