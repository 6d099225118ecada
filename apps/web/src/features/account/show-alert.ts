import { Toast } from 'antd-mobile';
import { ALERT_MS, showAlert } from '../../components/alert.ts';
import * as clipboard from '../../lib/clipboard.ts';

/** The spec's alerts (validation and failure messages): the app's one modal alert. */
export { showAlert };

/** A success note, shown like an alert with a tick. */
export const showDone = (content: string) =>
  Toast.show({ icon: 'success', content, duration: ALERT_MS, maskClickable: false });

/** The reader's own copy of an account or password; phones without clipboard access get a hint instead. */
export async function copyText(text: string, what: string) {
  if (await clipboard.copyText(text)) showDone(`${what}已复制`);
  else showAlert(`请长按复制${what}`);
}
