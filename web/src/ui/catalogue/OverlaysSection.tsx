/** The catalogue's section for the kit's overlays (Menu, Popover, Dialog, Drawer, Select, Tabs, DatePicker). */
export function OverlaysSection() {
  return null;
}
