export { API_DIST, createApiKeyWithCli } from './api-key-cli.js';
export { countingProxy } from './counting-proxy.js';
export { type DevChainFacts, type LiveService, type SolanaDevChainFacts, startLiveService } from './live-service.js';
export { noisePng, textPdf, tinyPng, toneWav } from './samples.js';
export { createTestDatabase, dropRedisKeys, freePort, TEST_POSTGRES_URL, TEST_REDIS_URL, type TestDatabase, uniqueQueuePrefix } from './test-stores.js';
export { answerStatus, type DeliveryAnswer, type ReceivedDelivery, startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';
