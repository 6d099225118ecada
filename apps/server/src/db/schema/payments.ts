import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text } from 'drizzle-orm/pg-core';

// A pack in the recharge centre: coins (itemCount + presentCount bonus) or VIP days (itemCount).
export const payConfigs = pgTable(
  'pay_configs',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    type: text().notNull(),
    amountLevel: integer().notNull(),
    itemCount: integer().notNull(),
    presentCount: integer().notNull().default(0),
    title: text().notNull(),
    configDesc: text().notNull().default(''),
    isDefault: boolean().notNull().default(false),
    isRecommend: boolean().notNull().default(false),
    initiatorCode: text().notNull().default('default'),
    sort: integer().notNull().default(0),
    active: boolean().notNull().default(true),
  },
  (t) => [
    check('pay_configs_type', sql`${t.type} in ('coin', 'vip')`),
    check('pay_configs_amounts', sql`${t.amountLevel} > 0 and ${t.itemCount} > 0 and ${t.presentCount} >= 0`),
  ],
);

export const payChannels = pgTable(
  'pay_channels',
  {
    subTypeCode: text().primaryKey(),
    superiorCode: text().notNull(),
    initiatorCode: text().notNull().default('default'),
    subTypeDesc: text().notNull(),
    // Percent of the pack price the payer pays: 95 is shown as 9.5折, 100 means no discount.
    discountPercent: integer().notNull().default(100),
    // Client types (wap_browser, ios_desk, shell, other) this channel is offered to.
    appTypes: text().array().notNull(),
    // The gateway adapter that serves this channel; 'sandbox' until real merchant keys are configured.
    gateway: text().notNull().default('sandbox'),
    sort: integer().notNull().default(0),
    active: boolean().notNull().default(true),
  },
  (t) => [
    check('pay_channels_superior', sql`${t.superiorCode} in ('alipay', 'wechat_pay', 'bank')`),
    check('pay_channels_discount', sql`${t.discountPercent} between 1 and 100`),
  ],
);
