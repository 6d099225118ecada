import type { Operator, Role } from '@yueman/contract/admin';
import { createContext, type ReactNode, useContext, useMemo, useState } from 'react';

/** Who writes the catalogue, the home page and the branches (the server's CATALOGUE_WRITERS). */
export const CATALOGUE_WRITERS: readonly Role[] = ['owner', 'editor'];
export const OWNER_ONLY: readonly Role[] = ['owner'];
export const COMPLAINT_READERS: readonly Role[] = ['owner', 'support'];
export const ANY_ROLE: readonly Role[] = ['owner', 'editor', 'finance', 'support'];
/** Who reads orders and their stories (the server's ORDER_READERS): not editors. */
export const ORDER_READERS: readonly Role[] = ['owner', 'finance', 'support'];
/** Who reads revenue (the server's REVENUE_READERS). */
export const REVENUE_READERS: readonly Role[] = ['owner', 'finance'];
/** Who refunds, and so sees whole order numbers (the server's REFUNDERS); others see them in part. */
export const REFUNDERS: readonly Role[] = ['owner', 'finance'];
/** Who keeps a reader's account: password, sign-out, block (the server's READER_ACCOUNT_KEEPERS). */
export const READER_ACCOUNT_KEEPERS: readonly Role[] = ['owner', 'support'];
/** Who finds readers and reads their page (the server's READER_VIEWERS): not editors. */
export const READER_VIEWERS: readonly Role[] = ['owner', 'finance', 'support'];
/** Who adjusts a reader's coins and VIP days (the server's READER_VALUE_KEEPERS). */
export const READER_VALUE_KEEPERS: readonly Role[] = ['owner', 'finance'];

/** Who reads the packs and pay channels (the server's PACK_VIEWERS), and who edits them (PACK_KEEPERS). */
export const PACK_VIEWERS: readonly Role[] = ['owner', 'finance', 'support'];
export const PACK_KEEPERS: readonly Role[] = ['owner', 'finance'];

interface Session {
  /** The signed-in operator; undefined until the me call answered. */
  operator: Operator | undefined;
  setOperator(operator: Operator | undefined): void;
}

const SessionContext = createContext<Session>({ operator: undefined, setOperator: () => undefined });

export function SessionProvider({ children }: { children: ReactNode }) {
  const [operator, setOperator] = useState<Operator | undefined>(undefined);
  const value = useMemo(() => ({ operator, setOperator }), [operator]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export const useSession = () => useContext(SessionContext);

/** Whether the signed-in operator's role is one of `roles` (the screens hide what the server would refuse). */
export function useCan(roles: readonly Role[]) {
  const { operator } = useSession();
  return operator !== undefined && roles.includes(operator.role);
}
