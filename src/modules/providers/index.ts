export { providerRoutes } from './providers.routes.js';
export { connectionSyncIntervals, isConnected, notConnected, openProviderSession, providerErrorAnswer, rotateConnectionSecrets } from './providers.service.js';
