import type { RouteMatch } from './routes';

export interface PageProps {
  match: RouteMatch;
  /** path + query of the current URL */
  url: string;
}
