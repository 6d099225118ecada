import { homePath } from '../../lib/paths.ts';
import { sitePath } from '../../lib/safe-links.ts';

/** Where the report page (and the chat-app prompt) may send the reader: a path on this site, else /home. */
export const safeReturnPath = (raw: string | null | undefined) => sitePath(raw) ?? homePath();
