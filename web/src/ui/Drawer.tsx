/** The drawer lives in the kit (kit/Drawer.tsx); this path is kept for its callers. */
export { Drawer, type Dock, type DrawerProps } from './kit/Drawer';
