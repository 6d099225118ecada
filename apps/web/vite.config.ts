import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  // One React for the app and every library (antd-mobile's animation library once pulled in React 18).
  resolve: { dedupe: ['react', 'react-dom'] },
  server: { proxy: { '/api': 'http://localhost:8080', '^/.*\\.img$': 'http://localhost:8080' } },
  build: { target: 'es2020' },
});
