// The spending orders live apart from the prompt's choices (unlock-choices.ts): the settings store, which every
// chapter loads, needs only these, and the prompt's code then stays in the chunk loaded when a chapter is locked.
// The orders' names are the settings sheet's own text (components/reader-settings.tsx), for the same reason.

/** What the reader may spend on a locked chapter, besides coins. */
export type SpendWay = 'ticket' | 'wait_free' | 'coins';

/** The spending orders the reader may choose in the settings sheet; auto-buy follows the chosen one. */
export const SPEND_ORDERS = {
  ticket_first: ['ticket', 'wait_free', 'coins'],
  wait_first: ['wait_free', 'ticket', 'coins'],
  coins_only: ['coins'],
} as const satisfies Record<string, readonly SpendWay[]>;
export type SpendOrder = keyof typeof SPEND_ORDERS;
export const DEFAULT_SPEND_ORDER: SpendOrder = 'ticket_first';
export const isSpendOrder = (v: unknown): v is SpendOrder => typeof v === 'string' && v in SPEND_ORDERS;
