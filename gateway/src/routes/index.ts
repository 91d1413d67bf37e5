import type { RouteDef } from './types';
import { authRoutes } from './auth';
import { boardsRoutes } from './boards';

/** Every service route of the gateway, in one list: the router and the OpenAPI document use it. */
export const serviceRoutes: RouteDef[] = [...authRoutes, ...boardsRoutes];
