import { createContext, useContext, forwardRef, type ComponentProps } from 'react';
import { Link, NavLink } from 'react-router-dom';
import type { Locale } from '@wb/proto';
import { withPrefix } from './routes';

/** The language prefix of the current URL (undefined for English / no prefix). */
export const PrefixContext = createContext<Locale | undefined>(undefined);

export function usePrefix(): Locale | undefined {
  return useContext(PrefixContext);
}

/** `(path) => path with the current prefix` */
export function useLocalPath(): (path: string) => string {
  const prefix = usePrefix();
  return (path) => withPrefix(prefix, path);
}

/** A Link that keeps the current language prefix. */
export const LocalLink = forwardRef<HTMLAnchorElement, ComponentProps<typeof Link> & { to: string }>(function LocalLink(
  { to, ...rest },
  ref,
) {
  const lp = useLocalPath();
  return <Link ref={ref} to={lp(to)} {...rest} />;
});

export function LocalNavLink({ to, ...rest }: ComponentProps<typeof NavLink> & { to: string }) {
  const lp = useLocalPath();
  return <NavLink to={lp(to)} {...rest} />;
}
