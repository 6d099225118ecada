/**
 * Copies text for the reader (an account, a password, the site's address). False where the browser refuses: no
 * clipboard outside a secure context, or no permission; the caller then asks the reader to long-press and copy.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
