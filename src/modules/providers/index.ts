export { providerRoutes } from './providers.routes.js';
export { isConnected, notConnected, openProviderSession, providerErrorAnswer, rotateConnectionSecrets } from './providers.service.js';
