// The clock of a spec's own server, set by the test: loaded into that server's process with `node --import` by
// startOwnServer (its `clockAheadMs`), never by the server itself, so nothing a client sends and no setting of a
// deployed server can move it. The server's every "now" (new Date(), Date.now()) runs E2E_CLOCK_AHEAD_MS ahead of
// the machine's: a spec makes tomorrow come by restarting its server one day further ahead, as a day passing would.
const ahead = Number(process.env.E2E_CLOCK_AHEAD_MS ?? 0);

if (Number.isFinite(ahead) && ahead !== 0) {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  RealDate.now = () => realNow() + ahead;
  // A Proxy keeps Date itself (its prototype, instanceof, Date.UTC, Date.parse): only "now" moves.
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args, newTarget) =>
      Reflect.construct(target, args.length === 0 ? [realNow() + ahead] : args, newTarget),
    apply: () => new RealDate(realNow() + ahead).toString(),
  });
}
