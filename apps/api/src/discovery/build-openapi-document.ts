import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { AppConfig } from '../config/app-config.js';
import { apiComponentSchemas } from '../http-kit/api-schema-registry.js';
import { fillConfiguredFigures } from '../http-kit/configured-figures.js';
import { PaymentRails } from '../payments/payment-rails.js';
import { openApiFigures } from './openapi-figures.js';
import { paidResources } from './paid-resources.js';
import { addPaymentDocs } from './payment-docs.js';

export const OPENAPI_DOCUMENT_VERSION = '1.0.0';

/** Builds the OpenAPI 3.1 document from the controllers' decorators and the registered zod schemas, with the configured prices and limits. */
export function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const base = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Fileshift API')
    .setDescription(
      'File-type detection and file conversion. The x402 API (/api/x402/v1) is paid per call in USDC with x402; ' +
        'the key API (/api/v1) authenticates with the Api-Key header.',
    )
    .setVersion(OPENAPI_DOCUMENT_VERSION)
    .addServer(config.publicBaseUrl ?? `http://${config.host}:${config.port}`)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'Api-Key', description: 'Key API secret.' }, 'ApiKey')
    .build();
  const document = SwaggerModule.createDocument(app, base, {
    operationIdFactory: (_controller, method) => method,
  });
  addPaymentDocs(document, paidResources(config.prices), app.get(PaymentRails).accepts);
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ...apiComponentSchemas() } as never };
  return fillConfiguredFigures(document, openApiFigures(config));
}
