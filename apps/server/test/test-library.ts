// The demo library the tests start from: the demo's, without its first-recharge offer, so a test's first payment
// credits exactly its order's coins and bonus (packs.console.test.ts sets offers up on packs of its own, and
// seed-demo.test.ts checks the demo's offer itself).
import { demoLibrary } from '../src/seed/demo-library.ts';

export function testLibrary() {
  const lib = demoLibrary();
  return {
    ...lib,
    payConfigs: lib.payConfigs.map((p) => ({
      ...p,
      firstPayBonus: 0,
      firstPayStartsAt: null,
      firstPayEndsAt: null,
    })),
  };
}
