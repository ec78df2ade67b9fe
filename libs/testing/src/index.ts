export { type DevChainFacts, type LiveService, startLiveService } from './live-service.js';
