import { defineRoutes } from './types';
export const authRoutes = defineRoutes([]);
