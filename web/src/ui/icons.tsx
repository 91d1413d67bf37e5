/** The icons live in the kit (kit/Icon.tsx); this path is kept for its callers. */
export { Icon, ICON_PROPS, type IconName } from './kit/Icon';
