// The demo library, as main.ts loads it (only when DEMO_LIBRARY is on): the generator and the picture drawer.
export { demoDrawer } from './demo-drawer.ts';
export { seedDemoLibrary } from './seed-demo.ts';
