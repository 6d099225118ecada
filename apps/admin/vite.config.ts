import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The operators' console, served by the server under /admin/ (apps/server serves dist/index.html for any /admin/*
// path that is not a file; the app routes under the basename /admin).
export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  resolve: { dedupe: ['react', 'react-dom'] },
  server: { proxy: { '/api': 'http://localhost:8080' } },
  build: {
    target: 'es2020',
    outDir: 'dist',
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      output: {
        // antd and pro-components in chunks of their own: they change less often than the screens.
        manualChunks(id) {
          if (id.includes('node_modules/@ant-design/pro-')) return 'pro-components';
          if (/node_modules\/(antd|@ant-design|rc-|@rc-component)/.test(id)) return 'antd';
          if (/node_modules\/(react|react-dom|react-router|scheduler)\//.test(id)) return 'react';
          return undefined;
        },
      },
    },
  },
});
