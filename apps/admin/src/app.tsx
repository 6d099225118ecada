import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useNavigate } from 'react-router';
import { connectApi } from './api.ts';
import { Guard, Shell } from './layout.tsx';
import { MENU } from './menu.tsx';
import LoginPage from './pages/login.tsx';
import { SessionProvider } from './session.tsx';

dayjs.locale('zh-cn');

const BooksPage = lazy(() => import('./pages/books.tsx'));
const BookEditPage = lazy(() => import('./pages/book-edit.tsx'));
const ImportsPage = lazy(() => import('./pages/imports.tsx'));
const HomePage = lazy(() => import('./pages/home.tsx'));
const BranchesPage = lazy(() => import('./pages/branches.tsx'));
const ComplaintsPage = lazy(() => import('./pages/complaints.tsx'));
const OrdersPage = lazy(() => import('./pages/orders.tsx'));
const OrderPage = lazy(() => import('./pages/order.tsx'));
const RevenuePage = lazy(() => import('./pages/revenue.tsx'));
const DashboardPage = lazy(() => import('./pages/dashboard.tsx'));
const PacksPage = lazy(() => import('./pages/packs.tsx'));
const CampaignsPage = lazy(() => import('./pages/campaigns.tsx'));
const CheckinPage = lazy(() => import('./pages/checkin.tsx'));
const CardPage = lazy(() => import('./pages/card.tsx'));
const OperatorsPage = lazy(() => import('./pages/operators.tsx'));
const AuditPage = lazy(() => import('./pages/audit.tsx'));
const ReadersPage = lazy(() => import('./pages/readers.tsx'));
const ReaderPage = lazy(() => import('./pages/reader.tsx'));
const NotFoundPage = lazy(() => import('./pages/not-found.tsx'));

/** Hands the API client the app's message API and navigation (401 opens the login page, keeping this one). */
function ConnectApi() {
  const { message } = AntApp.useApp();
  const navigate = useNavigate();
  useEffect(() => {
    connectApi({
      message,
      toLogin: (from) => navigate(`/login?from=${encodeURIComponent(from)}`, { replace: true }),
    });
  }, [message, navigate]);
  return null;
}

const rolesOf = (path: string) => MENU.find((m) => m.path === path)?.roles ?? [];

function screen(path: string, element: ReactNode) {
  return <Guard roles={rolesOf(path)}>{element}</Guard>;
}

export function App() {
  return (
    <ConfigProvider locale={zhCN} theme={{ token: { colorPrimary: '#1677ff' } }}>
      <AntApp>
        <SessionProvider>
          <BrowserRouter basename="/admin">
            <ConnectApi />
            <Suspense fallback={null}>
              <Routes>
                <Route path="/login" element={<LoginPage />} />
                <Route element={<Shell />}>
                  <Route index element={<Navigate to="/books" replace />} />
                  <Route path="/books" element={screen('/books', <BooksPage />)} />
                  <Route path="/books/:id" element={screen('/books', <BookEditPage />)} />
                  <Route path="/imports" element={screen('/imports', <ImportsPage />)} />
                  <Route path="/home" element={screen('/home', <HomePage />)} />
                  <Route path="/branches" element={screen('/branches', <BranchesPage />)} />
                  <Route path="/orders" element={screen('/orders', <OrdersPage />)} />
                  <Route path="/orders/:orderNo" element={screen('/orders', <OrderPage />)} />
                  <Route path="/orders/by-id/:id" element={screen('/orders', <OrderPage />)} />
                  <Route path="/dashboard" element={screen('/dashboard', <DashboardPage />)} />
                  <Route path="/revenue" element={screen('/revenue', <RevenuePage />)} />
                  <Route path="/packs" element={screen('/packs', <PacksPage />)} />
                  <Route path="/campaigns" element={screen('/campaigns', <CampaignsPage />)} />
                  <Route path="/checkin" element={screen('/checkin', <CheckinPage />)} />
                  <Route path="/card" element={screen('/card', <CardPage />)} />
                  <Route path="/complaints" element={screen('/complaints', <ComplaintsPage />)} />
                  <Route path="/readers" element={screen('/readers', <ReadersPage />)} />
                  <Route path="/readers/:userId" element={screen('/readers', <ReaderPage />)} />
                  <Route path="/operators" element={screen('/operators', <OperatorsPage />)} />
                  <Route path="/audit" element={screen('/audit', <AuditPage />)} />
                  <Route path="*" element={<NotFoundPage />} />
                </Route>
              </Routes>
            </Suspense>
          </BrowserRouter>
        </SessionProvider>
      </AntApp>
    </ConfigProvider>
  );
}
