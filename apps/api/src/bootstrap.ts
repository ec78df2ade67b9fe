import './openapi-schema-order.js';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { INestApplicationContext } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppModule } from './app.module.js';
import type { AppConfig } from './config/app-config.js';
import { buildOpenApiDocument } from './discovery/build-openapi-document.js';
import { OpenApiDocumentStore } from './http-kit/openapi-document.store.js';
import { answerFrameworkError } from './http-kit/answer-framework-error.js';
import { ClosingFastifyAdapter } from './http-kit/closing-fastify.adapter.js';
import { apiOfFastifyRequest, matchedRoutePattern } from './http-kit/api-of-request.js';
import { createClientErrorHandler } from './http-kit/client-error-handler.js';
import { allowCrossOrigin } from './http-kit/cross-origin.js';
import { HttpExceptionFilter } from './http-kit/http-exception.filter.js';
import { answerUnmetExpectation } from './http-kit/unmet-expectation.handler.js';
import { keyApiPublicError } from './key-api/key-api-errors.js';
import { x402PublicError } from './x402-api/x402-errors.js';
import { PinoNestLogger } from './logging/pino-nest-logger.js';
import { ServiceMetrics } from './metrics/service-metrics.js';
import { MAX_JOIN_FILES, MAX_UPLOAD_BYTES } from './config/upload-limit.js';
import { allowMcpContent } from './mcp-endpoint/mcp-body-limit.js';
import fastifyMultipart from '@fastify/multipart';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Creates and initialises the HTTP application (ROLE api or all) without listening. */
export async function createHttpApp(config: AppConfig, logger: Logger): Promise<NestFastifyApplication> {
  const adapter = new ClosingFastifyAdapter({
    loggerInstance: logger,
    bodyLimit: config.jsonBodyLimitBytes,
    requestIdHeader: false,
    genReqId: (request: IncomingMessage) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: Boolean(config.publicBaseUrl),
    // Errors raised before the app sees a request answer in the shape of its API, never quoting it.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: createClientErrorHandler(logger),
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRole(config), adapter, {
    logger: new PinoNestLogger(logger),
    bufferLogs: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  // An Expect other than 100-continue: Node would answer 417 itself, with no body.
  app.getHttpServer().on('checkExpectation', answerUnmetExpectation);
  // Hooks that never wait take Fastify's callback form: an async hook costs a promise on every request.
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (adapter.closing) reply.header('connection', 'close');
    done(null, payload);
  });
  const metrics = app.get(ServiceMetrics);
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.httpAnswered(apiOfFastifyRequest(request), matchedRoutePattern(request), reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  allowCrossOrigin(fastify, config.corsAllowedOrigins);
  // Before the routes are registered (app.init): /mcp takes base64 file content, past the JSON body limit.
  fastify.addHook('onRoute', allowMcpContent);
  // Binary bodies (the key API's detect_file_type) arrive as a Buffer; each route bounds its size.
  fastify.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  await app.register(fastifyMultipart as never, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: MAX_JOIN_FILES, fields: 10, fieldSize: 4096, parts: MAX_JOIN_FILES + 10 },
  });
  app.useGlobalFilters(new HttpExceptionFilter({ x402: x402PublicError, key: keyApiPublicError, other: x402PublicError }));
  await app.init();
  app.get(OpenApiDocumentStore).set(buildOpenApiDocument(app, config));
  return app;
}

/** Creates the worker-only application context (ROLE worker): no HTTP server. */
export async function createWorkerContext(config: AppConfig, logger: Logger): Promise<INestApplicationContext> {
  const context = await NestFactory.createApplicationContext(AppModule.forRole(config), {
    logger: new PinoNestLogger(logger),
  });
  await context.init();
  return context;
}
