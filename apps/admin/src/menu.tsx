import {
  AuditOutlined,
  BookOutlined,
  CalendarOutlined,
  CloudUploadOutlined,
  CreditCardOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  FundOutlined,
  GiftOutlined,
  HomeOutlined,
  ProfileOutlined,
  TagsOutlined,
  TeamOutlined,
  UserSwitchOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import type { Role } from '@yueman/contract/admin';
import type { ReactNode } from 'react';
import {
  ANY_ROLE,
  CATALOGUE_WRITERS,
  COMPLAINT_READERS,
  ORDER_READERS,
  OWNER_ONLY,
  PACK_VIEWERS,
  READER_VIEWERS,
  REVENUE_READERS,
} from './session.tsx';

export interface MenuEntry {
  path: string;
  name: string;
  icon: ReactNode;
  /** The roles that use the screen; others do not see the entry (the server decides each call anyway). */
  roles: readonly Role[];
  /** Pages under the entry (not in the menu, the entry stays selected). */
  children?: { path: string; name: string; hideInMenu: true }[];
}

export const MENU: MenuEntry[] = [
  // First: the screen owners and finance open after signing in (firstPageOf); other roles start further down.
  { path: '/dashboard', name: '数据概览', icon: <DashboardOutlined />, roles: REVENUE_READERS },
  {
    path: '/books',
    name: '书籍',
    icon: <BookOutlined />,
    roles: ANY_ROLE,
    children: [{ path: '/books/:id', name: '书籍编辑', hideInMenu: true }],
  },
  { path: '/imports', name: '导入', icon: <CloudUploadOutlined />, roles: CATALOGUE_WRITERS },
  { path: '/home', name: '首页', icon: <HomeOutlined />, roles: ANY_ROLE },
  { path: '/branches', name: '渠道客服', icon: <CustomerServiceOutlined />, roles: ANY_ROLE },
  {
    path: '/orders',
    name: '订单',
    icon: <ProfileOutlined />,
    roles: ORDER_READERS,
    children: [
      { path: '/orders/:orderNo', name: '订单详情', hideInMenu: true },
      { path: '/orders/by-id/:id', name: '订单详情', hideInMenu: true },
    ],
  },
  { path: '/revenue', name: '营收', icon: <FundOutlined />, roles: REVENUE_READERS },
  { path: '/packs', name: '套餐与支付', icon: <GiftOutlined />, roles: PACK_VIEWERS },
  { path: '/campaigns', name: '限免与折扣', icon: <TagsOutlined />, roles: CATALOGUE_WRITERS },
  { path: '/checkin', name: '每日签到', icon: <CalendarOutlined />, roles: READER_VIEWERS },
  { path: '/card', name: '月卡', icon: <CreditCardOutlined />, roles: PACK_VIEWERS },
  { path: '/complaints', name: '投诉', icon: <WarningOutlined />, roles: COMPLAINT_READERS },
  {
    path: '/readers',
    name: '读者',
    icon: <UserSwitchOutlined />,
    roles: READER_VIEWERS,
    children: [{ path: '/readers/:userId', name: '读者详情', hideInMenu: true }],
  },
  { path: '/operators', name: '管理员', icon: <TeamOutlined />, roles: OWNER_ONLY },
  { path: '/audit', name: '操作日志', icon: <AuditOutlined />, roles: OWNER_ONLY },
];

/** The first screen an operator of this role opens after signing in. */
export const firstPageOf = (role: Role) => MENU.find((m) => m.roles.includes(role))?.path ?? '/books';
