/** A business event another module counts where it happens (one call, no await). */
export type BusinessEvent =
  /** payments: a new pay order (not the open order a repeated tap gets again). */
  | { event: 'order-created'; purpose: string }
  /** payments: the sweeper expired `count` unpaid orders. */
  | { event: 'orders-expired'; count: number }
  /** payments: a gateway's notification and what became of it (credited: the order was paid now). */
  | { event: 'pay-notification'; outcome: 'credited' | 'duplicate' | 'recorded' | 'refused' }
  /** wallet: a chapter bought for `coins` (0 when nothing was charged: free, VIP-free, already owned). */
  | { event: 'chapter-bought'; coins: number };

/** What other modules (and app.ts) may ask of the metrics module: counting, never reading. */
export interface MetricsPort {
  /** Counts a business event (payments, wallet). */
  count(event: BusinessEvent): void;
  /** images: one lookup of an image answer in a cache tier ('memory': answers kept in memory, 'disk': resized files). */
  imageCache(tier: 'memory' | 'disk', outcome: 'hit' | 'miss'): void;
  /** images: one resize of a source image to WebP took `seconds`. */
  imageResized(seconds: number): void;
}
