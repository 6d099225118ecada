import { type CommonInfo, DEFAULT_BRANCH, type UserInfo } from '@yueman/contract';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/** Who the reader is on this device (spec section 3, local storage). */
interface UserState {
  userInfo: UserInfo | null;
  /** The generated password, kept from registration so the account page can show it. */
  password: string;
  traceId: string;
  branchId: number;
  fromDomain: string;
  commonInfo: CommonInfo | null;
  setUser(info: UserInfo): void;
  /** Another account on this device (a hand-off): its password is not known here, the old one is not its. */
  switchUser(info: UserInfo): void;
  setAttribution(a: { traceId?: string; branchId?: number; fromDomain?: string }): void;
  setCommonInfo(info: CommonInfo): void;
}

const newTraceId = () =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `v-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

export const useUserStore = create<UserState>()(
  persist(
    (set) => ({
      userInfo: null,
      password: '',
      traceId: newTraceId(),
      branchId: DEFAULT_BRANCH,
      fromDomain: typeof location === 'undefined' ? '' : location.hostname,
      commonInfo: null,
      setUser: (info) => set((s) => ({ userInfo: info, password: info.password || s.password })),
      switchUser: (info) => set({ userInfo: info, password: info.password || '' }),
      setAttribution: (a) =>
        set((s) => ({ ...s, ...Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined)) })),
      setCommonInfo: (commonInfo) => set({ commonInfo }),
    }),
    { name: 'ym-user' },
  ),
);

export const isVip = (info: UserInfo | null) => !!info && info.vipType !== 'none';
