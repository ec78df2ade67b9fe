export { type DevChainFacts, freePort, type LiveService, startLiveService } from './live-service.js';
