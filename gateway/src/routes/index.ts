import type { RouteDef } from './types';
import { authRoutes } from './auth';
import { billingRoutes } from './billing';
import { boardsRoutes } from './boards';
import { callsRoutes } from './calls';
import { collaborationRoutes } from './collaboration';
import { coursesRoutes } from './courses';
import { filesRoutes } from './files';
import { teamsRoutes } from './teams';

/** Every service route of the gateway, in one list: the router and the OpenAPI document use it. */
export const serviceRoutes: RouteDef[] = [
  ...authRoutes,
  ...callsRoutes,
  ...boardsRoutes,
  ...collaborationRoutes,
  ...filesRoutes,
  ...teamsRoutes,
  ...coursesRoutes,
  ...billingRoutes,
];
