/** How long an alert shows before it fades (spec sections 4 and 9: about 1.5 s). */
export const ALERT_MS = 1500;

/**
 * Shows a short message in a modal alert (spec sections 4, 5 and 8), the one way the screens show one.
 *
 * antd-mobile's Toast with `maskClickable: false` rather than a Dialog that closes itself: Toast already hides
 * after its duration and then fades, shows one message at a time (a new alert replaces the one showing, so
 * tapping 下一话 twice does not stack two), and has no buttons suggesting the reader must answer. Its
 * transparent mask covers the screen while it shows, so taps behind it are blocked and the page does not
 * scroll: modal, as the spec asks.
 *
 * Toast is loaded on first use: it brings antd-mobile's animation library (react-spring, about 17 KB gzip),
 * which would otherwise be on the critical path of every screen that can show an alert.
 */
export function showAlert(text: string): void {
  void import('antd-mobile/es/components/toast').then(({ default: Toast }) => {
    Toast.show({ content: text, duration: ALERT_MS, maskClickable: false });
  });
}
