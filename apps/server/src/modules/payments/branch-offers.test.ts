// Packs and pay channels per promotion branch: one whose code names a branch is offered only to readers of that
// branch (the account's branch, never one the client sends); `default` is offered to every branch.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor, type TestVisitor } from '../../../test/visitors.ts';
import { payChannels, payConfigs, payOrders, users } from '../../db/schema/index.ts';
import { applyUrl, demo } from './payments.test-support.ts';

describeDb('packs and channels per promotion branch', () => {
  let t: TestApp;
  let elsewhere: TestVisitor;
  let ofBranch: TestVisitor;
  beforeAll(async () => {
    t = await createTestApp({ env: manyVisitorsEnv });
    elsewhere = await registerVisitor(t);
    ofBranch = await registerVisitor(t);
    await t.db.update(users).set({ branchId: 7001 }).where(eq(users.id, ofBranch.userId));
    // The 30-yuan coin pack and WeChat H5 only for branch 7001.
    await t.db
      .update(payConfigs)
      .set({ initiatorCode: '7001' })
      .where(eq(payConfigs.id, demo.coin3000.payPurposeId));
    await t.db
      .update(payChannels)
      .set({ initiatorCode: '7001' })
      .where(eq(payChannels.subTypeCode, 'wechat_h5'));
  });
  afterEach(() => expectLedgerInvariants(t.db));
  afterAll(() => t?.close());

  const centre = async (who: TestVisitor) => {
    const res = await t.app.inject({
      url: '/api/user/recharge?appType=wap_browser',
      headers: { cookie: who.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as { payConfigs: { id: number }[]; subTypes: { subTypeCode: string }[] };
    return { packs: data.payConfigs.map((p) => p.id), channels: data.subTypes.map((c) => c.subTypeCode) };
  };
  const orders = () => t.db.$count(payOrders);

  it('shows a branch’s pack and channel to that branch’s readers only; `default` ones to everyone', async () => {
    const other = await centre(elsewhere);
    expect(other.packs).not.toContain(demo.coin3000.payPurposeId);
    expect(other.packs).toContain(demo.coin600.payPurposeId);
    expect(other.channels).not.toContain('wechat_h5');
    expect(other.channels).toContain('alipay_wap');
    const own = await centre(ofBranch);
    expect(own.packs).toContain(demo.coin3000.payPurposeId);
    expect(own.packs).toContain(demo.coin600.payPurposeId);
    expect(own.channels).toEqual(expect.arrayContaining(['wechat_h5', 'alipay_wap']));
  });

  it('refuses an order for a pack or channel not offered to the reader’s branch, whatever branch the client names', async () => {
    const before = await orders();
    const pack = await t.app.inject({
      url: applyUrl({ ...demo.coin3000, payChannel: 'alipay_wap', rechargerAmount: 3000 }).replace(
        'branchId=-2',
        'branchId=7001',
      ),
      headers: { cookie: elsewhere.cookie },
    });
    expect(pack.statusCode).toBe(400);
    expect(pack.body).toContain('套餐不存在或已下架');
    const channel = await t.app.inject({
      url: applyUrl({ ...demo.coin600, payChannel: 'wechat_h5', rechargerAmount: 570 }).replace(
        'branchId=-2',
        'branchId=7001',
      ),
      headers: { cookie: elsewhere.cookie },
    });
    expect(channel.statusCode).toBe(400);
    expect(channel.body).toContain('支付通道不存在或维护中');
    expect(await orders()).toBe(before);

    // The branch's reader orders both.
    const ok = await t.app.inject({
      url: applyUrl({ ...demo.coin3000, payChannel: 'wechat_h5', rechargerAmount: 2850 }),
      headers: { cookie: ofBranch.cookie },
    });
    expect(ok.statusCode, ok.body).toBe(302);
    expect(await orders()).toBe(before + 1);
  });
});
