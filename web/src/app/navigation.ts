/** Navigation for code outside React (the API client's redirect header). */
let navigator: ((path: string) => void) | undefined;

export function setNavigator(fn: ((path: string) => void) | undefined): void {
  navigator = fn;
}

/** Spec §8: navigating before the router is ready is an error, not a silent no-op. */
export function navigateTo(path: string): void {
  if (!navigator) throw new Error('Router not found');
  navigator(path);
}
