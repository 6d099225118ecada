import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/yueman-config-test', ...env });
const notices = {
  WECHAT_NOTICE_TEMPLATES: 'new_chapter=TplNewChapter0001',
  WECHATPAY_APPID: 'wx0000000000000001',
  WECHATPAY_APPSECRET: 'ab'.repeat(16),
  WECHAT_PUSH_TOKEN: 'yuemanpush',
};

describe('the WeChat notices’ settings', () => {
  it('are off without templates; with them, a pass a minute and 3 a day unless told', () => {
    expect(load({}).notices).toBeUndefined();
    expect(load(notices).notices).toMatchObject({
      templates: { new_chapter: 'TplNewChapter0001' },
      perDay: 3,
      passSeconds: 60,
    });
    expect(load({ ...notices, NOTICES_PASS_SECONDS: '1' }).notices?.passSeconds).toBe(1);
  });

  it('refuses a pass interval that is not 1 to 3600 seconds', () => {
    for (const bad of ['0', '3601', '0.5', 'soon'])
      expect(() => load({ ...notices, NOTICES_PASS_SECONDS: bad }), bad).toThrow(/NOTICES_PASS_SECONDS/);
  });
});
